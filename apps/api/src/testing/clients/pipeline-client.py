#!/usr/bin/env python3
"""A Weft client written as a third party would write one, with nothing from Weft: GraphQL over HTTP
(urllib from the standard library) and the graphql-transport-ws protocol over WebSocket (the
`websockets` package). It builds a looping weft.workflow/v2 graph edit by edit, tries an edit the rules
refuse, runs the graph and follows its events to the end, then prints a JSON summary on stdout.

    python3 pipeline-client.py <http url> <ws url> <api key>
"""
import asyncio
import json
import sys
import urllib.request

import websockets


def request(url, key, query, variables=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode("utf-8")
    headers = {"content-type": "application/json", "authorization": f"Bearer {key}"}
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as response:
        result = json.load(response)
    if result.get("errors"):
        raise RuntimeError(f"GraphQL errors: {result['errors']}")
    return result["data"]


class Api:
    def __init__(self, url, key):
        self.url, self.key = url, key

    def query(self, query, **variables):
        return request(self.url, self.key, query, variables)

    def mutate(self, field, query, **variables):
        """A mutation whose payload must come back without errors."""
        payload = self.query(query, **variables)[field]
        if payload["errors"]:
            raise RuntimeError(f"{field} refused: {payload['errors']}")
        return payload


ADD_NODE = """mutation($w: ID!, $input: AddNodeInput!) {
  addNode(workflowId: $w, input: $input) { node { id ports } errors { code message field } } }"""
ADD_EDGE = """mutation($w: ID!, $s: ID!, $t: ID!, $port: String, $loop: String) {
  addEdge(workflowId: $w, source: $s, target: $t, sourcePort: $port, loop: $loop) {
    edge { id sourcePort loop } errors { code message nodeIds edgeIds } } }"""


def build(api):
    """question ─► route ─[short]─► direct ─────────────► answer ─► output
                     └─[default]─► draft ─► check ─[pass]──┘
                                    ▲──[retry, loop regen]─┘"""
    workflow = api.mutate("createWorkflow", 'mutation { createWorkflow(input: { name: "python client" }) { workflow { id edges { id } } errors { code } } }')["workflow"]
    w = workflow["id"]
    for edge in workflow["edges"]:
        api.mutate("removeEdge", "mutation($w: ID!, $e: ID!) { removeEdge(workflowId: $w, edgeId: $e) { errors { code } } }", w=w, e=edge["id"])
    api.mutate(
        "updateWorkflow",
        "mutation($w: ID!, $input: UpdateWorkflowInput!) { updateWorkflow(id: $w, input: $input) { workflow { id } errors { code message } } }",
        w=w,
        input={"loops": [{"id": "regen", "max": 3, "exit": "pass"}], "state": [{"name": "drafts", "reducer": "append"}]},
    )
    scripted = {"provider": "offline", "model": "scripted"}
    nodes = [
        {"id": "route", "type": "switch", "config": {"cases": [{"port": "short", "when": "size(input) < 12"}]}},
        {"id": "direct", "type": "template", "config": {"template": "Short: {input}"}},
        {"id": "draft", "type": "llm", **scripted, "params": {"replies": ["draft one", "draft two", "draft three"]},
         "prompt": "Answer: {input}\nLast feedback: {feedback}", "config": {"writes": "drafts"}},
        {"id": "check", "type": "grade", **scripted, "config": {"threshold": 0.8}, "params": {"replies": [
            {"verdict": "retry", "score": 0.2, "reason": "too vague"},
            {"verdict": "retry", "score": 0.5, "reason": "name the effect"},
            {"verdict": "pass", "score": 0.9, "reason": "good"},
        ]}},
        {"id": "answer", "type": "join"},
    ]
    ports = {node["id"]: api.mutate("addNode", ADD_NODE, w=w, input=node)["node"]["ports"] for node in nodes}
    edges = [
        ("input-1", "route", None, None), ("route", "direct", "short", None), ("route", "draft", "default", None),
        ("draft", "check", None, None), ("check", "answer", "pass", None), ("check", "draft", "retry", "regen"),
        ("direct", "answer", None, None), ("answer", "output-1", None, None),
    ]
    for source, target, port, loop in edges:
        api.mutate("addEdge", ADD_EDGE, w=w, s=source, t=target, port=port, loop=loop)
    refused = api.query(ADD_EDGE, w=w, s="check", t="draft", port="fail", loop="nope")["addEdge"]["errors"]
    return w, ports, [error["code"] for error in refused]


async def follow(ws_url, key, run_id):
    """graphql-transport-ws: connection_init → connection_ack, subscribe, `next` until `complete`."""
    events = []
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
        ack = json.loads(await socket.recv())
        if ack["type"] != "connection_ack":
            raise RuntimeError(f"not acknowledged: {ack}")
        query = """subscription($run: ID!) { runEvents(runId: $run, afterSeq: 0) {
          seq type nodeId invocation loopId iteration feedback ports reason output state } }"""
        await socket.send(json.dumps({"id": "events", "type": "subscribe", "payload": {"query": query, "variables": {"run": run_id}}}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=60))
            if message["type"] == "ping":
                await socket.send(json.dumps({"type": "pong"}))
            elif message["type"] == "next":
                if message["payload"].get("errors"):
                    raise RuntimeError(message["payload"]["errors"])
                events.append(message["payload"]["data"]["runEvents"])
            elif message["type"] == "complete":
                return events
            elif message["type"] == "error":
                raise RuntimeError(message["payload"])


def main():
    url, ws_url, key = sys.argv[1:4]
    api = Api(url, key)
    workflow_id, ports, refused = build(api)
    report = api.query("query($w: ID!) { validateWorkflow(id: $w) { valid violations { code } } }", w=workflow_id)["validateWorkflow"]
    run = api.mutate(
        "runWorkflow",
        "mutation($w: ID!, $input: RunWorkflowInput) { runWorkflow(workflowId: $w, input: $input) { run { id } errors { code message } } }",
        w=workflow_id,
        input={"inputs": [{"nodeId": "input-1", "content": "Why is the sky blue?"}]},
    )["run"]
    events = asyncio.run(follow(ws_url, key, run["id"]))
    stored = api.query("query($r: ID!) { run(id: $r) { status result state nodeRuns { nodeId invocation status } } }", r=run["id"])["run"]
    json.dump({"ports": ports, "refused": refused, "valid": report["valid"], "events": events, "run": stored}, sys.stdout)


if __name__ == "__main__":
    main()
