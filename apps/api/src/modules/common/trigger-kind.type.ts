import { registerEnumType } from "type-graphql";

/** What starts runs from outside (SPEC-V3 §5); here because runs (Run.trigger) and the trigger module both name it. */
export const TriggerKindEnum = { WEBHOOK: "WEBHOOK", SCHEDULE: "SCHEDULE" } as const;
export type TriggerKind = keyof typeof TriggerKindEnum;

registerEnumType(TriggerKindEnum, { name: "TriggerKind", description: "WEBHOOK: a signed POST to /hooks/<id>; SCHEDULE: a cron schedule." });
