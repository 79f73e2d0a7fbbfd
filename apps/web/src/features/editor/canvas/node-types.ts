import type { NodeTypes } from "@xyflow/react";
import { ModelNode } from "./model-node";
import { PipelineNode } from "./pipeline-node";
import { TextNode } from "./text-node";

/** Declared once at module scope: a new object per render would make xyflow remount every node. */
export const NODE_TYPES: NodeTypes = { text: TextNode, model: ModelNode, pipeline: PipelineNode };
