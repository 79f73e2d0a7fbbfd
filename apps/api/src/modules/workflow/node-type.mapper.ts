import type { Bounds, NodeTypeSpec } from "@weft/engine";
import type { DegreeBoundsObject, NodeTypeObject } from "./node-type.type.js";

function toBounds(bounds: Bounds): DegreeBoundsObject {
  return { min: bounds.min, max: Number.isFinite(bounds.max) ? bounds.max : null };
}

export function toNodeTypeObject(spec: NodeTypeSpec): NodeTypeObject {
  return {
    type: spec.type,
    label: spec.label,
    component: spec.component,
    accepts: [...spec.accepts],
    feeds: [...spec.feeds],
    inDegree: toBounds(spec.inDegree),
    outDegree: toBounds(spec.outDegree),
    count: spec.count ? toBounds(spec.count) : null,
    usesModel: spec.usesModel,
  };
}
