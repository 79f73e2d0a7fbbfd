import { isEnumType, isInterfaceType, isObjectType, type GraphQLSchema } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { buildWeftSchema } from "../../graphql/schema.js";
import { EVENT_OBJECT_NAMES } from "./run-event.type.js";

describe("the run event types of the schema", () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildWeftSchema();
  });

  it("give every event type of the RunEventType enum its own object type implementing RunEvent (a new event type needs its kind in run-event-kinds.type.ts)", () => {
    const runEventType = schema.getType("RunEventType");
    if (!isEnumType(runEventType)) throw new Error("RunEventType is not an enum");
    const runEvent = schema.getType("RunEvent");
    if (!isInterfaceType(runEvent)) throw new Error("RunEvent is not an interface");
    for (const { value } of runEventType.getValues()) {
      const name = EVENT_OBJECT_NAMES[value as keyof typeof EVENT_OBJECT_NAMES];
      const type = name ? schema.getType(name) : undefined;
      expect({ value, implementsRunEvent: isObjectType(type) && type.getInterfaces().includes(runEvent) }).toEqual({ value, implementsRunEvent: true });
    }
    expect(schema.getPossibleTypes(runEvent)).toHaveLength(runEventType.getValues().length);
  });

  it("give each field name one type across the kinds, so fragments on several kinds never conflict", () => {
    const seen = new Map<string, string>();
    for (const type of schema.getPossibleTypes(schema.getType("RunEvent") as never)) {
      for (const field of Object.values(type.getFields())) {
        const shape = String(field.type);
        expect({ field: `${type.name}.${field.name}`, shape }).toEqual({ field: `${type.name}.${field.name}`, shape: seen.get(field.name) ?? shape });
        seen.set(field.name, shape);
      }
    }
  });
});
