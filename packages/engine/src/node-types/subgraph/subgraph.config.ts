import { nodeConfig } from "../../registry/node-config.schema.js";
import { bodyField } from "../common/body-graph.js";

export const subgraphConfig = nodeConfig({ body: bodyField });
