import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ObjectType } from "type-graphql";
import { TEXT_COST } from "../common/field-cost.js";

@ObjectType("McpTool", { description: "A tool of an MCP server, as agents and tool nodes see it." })
export class McpToolObject {
  @Field(() => String)
  name!: string;

  @Field(() => String, { complexity: TEXT_COST })
  description!: string;

  @Field(() => GraphQLJSONObject, { complexity: TEXT_COST, description: "JSON Schema of its arguments." })
  inputSchema!: Record<string, unknown>;
}

@ObjectType("McpServer", { description: "An MCP server the operator configured (WEFT_PROVIDERS_FILE, \"mcp\"): `{type: \"mcp\", server: name}` tools reach it." })
export class McpServerObject {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "http (streamable HTTP) or stdio (a process the server starts)." })
  transport!: string;

  @Field(() => String, { description: "Its URL, or the command of a stdio server (never its headers or environment)." })
  target!: string;

  @Field(() => [McpToolObject], { description: "Its tools (tools/list); empty when it could not be reached (see error)." })
  tools!: McpToolObject[];

  @Field(() => String, { nullable: true, description: "Why its tools could not be listed (MCP_UNAVAILABLE, MCP_TIMEOUT, …: the code and message)." })
  error!: string | null;
}
