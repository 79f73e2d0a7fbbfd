import { Authorized, Ctx, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import type { McpCatalogService } from "./mcp-catalog.service.js";
import { McpServerObject } from "./mcp-server.type.js";

type McpContext = GraphQLContext<{ mcp: McpCatalogService }>;

@Resolver()
export class McpResolver {
  @Authorized("read")
  @Query(() => [McpServerObject], { description: "The MCP servers the operator configured, with their tools: what `mcp` tools of agents and tool nodes may name." })
  mcpServers(@Ctx() context: McpContext): Promise<McpServerObject[]> {
    return context.services.mcp.servers();
  }
}
