#!/usr/bin/env python3
"""An MCP client that is not Weft's: the Python `mcp` package (the protocol's official Python SDK), as a
third party would use it against Weft's MCP server. With the key it lists the tools and calls one with
progress reports, and calls it with an argument off the schema; without a key it tries to connect. It
prints a JSON summary on stdout.

    python mcp-client.py <mcp url> <api key> <tool name> <input node id> <text>
"""
import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def session_for(url, headers, work):
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await work(session)


def summary(result):
    return {
        "isError": result.is_error,
        "text": [block.text for block in result.content if block.type == "text"],
        "meta": result.meta or {},
    }


async def with_key(url, key, tool, node_id, text):
    async def work(session):
        listed = await session.list_tools()
        progress = []

        async def on_progress(value, total, message):
            progress.append({"progress": value, "total": total, "message": message})

        called = await session.call_tool(tool, {node_id: text}, progress_callback=on_progress)
        wrong = await session.call_tool(tool, {node_id: ["not", "text"]})
        return {
            "server": session.initialize_result.server_info.name,
            "tools": [{"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in listed.tools],
            "call": summary(called),
            "progress": progress,
            "wrongArguments": summary(wrong),
        }

    return await session_for(url, {"Authorization": f"Bearer {key}"}, work)


async def without_key(url):
    """The refusal as the client sees it: the HTTP status it was refused with, found in the exception."""
    try:
        await session_for(url, {}, lambda session: session.list_tools())
    except BaseException as error:  # noqa: BLE001 — anyio wraps it in an exception group
        return {"refused": True, "error": repr(error)[:2000]}
    return {"refused": False, "error": None}


async def main():
    url, key, tool, node_id, text = sys.argv[1:6]
    report = await with_key(url, key, tool, node_id, text)
    report["withoutKey"] = await without_key(url)
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
