#!/usr/bin/env python3
"""A Weft client for people in the loop, written as a third party would write one, with nothing from
Weft: GraphQL over HTTP (urllib from the standard library) and the graphql-transport-ws protocol over
WebSocket (the `websockets` package). On one WebSocket it watches the inbox (`humanTasksChanged`) and
follows a run (`runEvents`); it imports a workflow with two human steps, runs it, answers each task as
it opens — a refused answer first, then a good one — and prints a JSON summary on stdout.

    python3 human-client.py <http url> <ws url> <api key>
"""
import asyncio
import json
import sys
import urllib.request

import websockets

# draft ─► review (human, editable) ─[approve]─► rate (human, form) ─[ok]─► published ─► done ─► result
#                                   └─[reject]──► rejected ────────────────────────────────┘
WORKFLOW = {
    "format": "weft.workflow/v2",
    "name": "python inbox client",
    "nodes": [
        {"id": "draft", "type": "input", "content": "The sky is blue."},
        {"id": "review", "type": "human", "title": "Review: {input}", "assignee": "editors", "editable": True},
        {"id": "rate", "type": "human", "title": "Rate it", "actions": [{"id": "ok", "label": "Done"}], "form": {
            "type": "object", "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}}, "required": ["score"]}},
        {"id": "published", "type": "template", "template": "published: {input}"},
        {"id": "rejected", "type": "template", "template": "rejected"},
        {"id": "done", "type": "join"},
        {"id": "result", "type": "output"},
    ],
    "edges": [
        {"source": "draft", "target": "review"},
        {"source": "review", "sourcePort": "approve", "target": "rate"},
        {"source": "review", "sourcePort": "reject", "target": "rejected"},
        {"source": "rate", "sourcePort": "ok", "target": "published"},
        {"source": "published", "target": "done"},
        {"source": "rejected", "target": "done"},
        {"source": "done", "target": "result"},
    ],
}

EVENTS = """subscription($run: ID!) { runEvents(runId: $run, afterSeq: 0) {
  __typename seq type
  ... on NodeEvent { nodeId invocation }
  ... on NodeWaitingEvent { taskId title actions { id label } form input editable }
  ... on HumanTaskCompletedEvent { taskId action by data comment expired }
  ... on RunWaitingEvent { taskIds }
  ... on RunCompletedEvent { result } } }"""
CHANGES = "subscription($w: ID) { humanTasksChanged(workflowId: $w) { id nodeId status action completedBy } }"
INBOX = """query($w: ID) { humanTasks(status: [OPEN], workflowId: $w, first: 10) {
  totalCount edges { node { id nodeId title actions { id label } form input editable assignee status } } } }"""
COMPLETE = """mutation($id: ID!, $input: CompleteHumanTaskInput!) { completeHumanTask(id: $id, input: $input) {
  task { id status action data comment completedBy } errors { code message path } } }"""


def request(url, key, query, variables=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode("utf-8")
    headers = {"content-type": "application/json", "authorization": f"Bearer {key}"}
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as response:
        result = json.load(response)
    if result.get("errors"):
        raise RuntimeError(f"GraphQL errors: {result['errors']}")
    return result["data"]


class Session:
    """One graphql-transport-ws connection carrying two subscriptions; HTTP calls run on a thread."""

    def __init__(self, url, key, socket):
        self.url, self.key, self.socket = url, key, socket
        self.events, self.changes, self.complete = [], [], asyncio.Event()

    async def http(self, query, **variables):
        return await asyncio.to_thread(request, self.url, self.key, query, variables)

    async def subscribe(self, id, query, **variables):
        await self.socket.send(json.dumps({"id": id, "type": "subscribe", "payload": {"query": query, "variables": variables}}))

    async def receive(self):
        """Routes each message to its subscription until the run's event stream completes."""
        while not self.complete.is_set():
            message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout=120))
            if message["type"] == "ping":
                await self.socket.send(json.dumps({"type": "pong"}))
            elif message["type"] == "error":
                raise RuntimeError(message["payload"])
            elif message["type"] == "next":
                if message["payload"].get("errors"):
                    raise RuntimeError(message["payload"]["errors"])
                data = message["payload"]["data"]
                (self.events if message["id"] == "events" else self.changes).append(next(iter(data.values())))
            elif message["type"] == "complete" and message["id"] == "events":
                self.complete.set()

    async def waiting(self, node_id):
        """The NODE_WAITING of a node (runEvents replays from seq 1, so none is missed)."""
        while True:
            for event in self.events:
                if event["type"] == "NODE_WAITING" and event["nodeId"] == node_id:
                    return event
            await asyncio.sleep(0.02)


async def answer(session, workflow_id):
    """Answers both tasks from the inbox, each time trying an answer the API refuses first."""
    refusals = []
    review = await session.waiting("review")
    inbox = (await session.http(INBOX, w=workflow_id))["humanTasks"]
    unknown = (await session.http(COMPLETE, id=review["taskId"], input={"action": "publish"}))["completeHumanTask"]
    refusals.append(unknown["errors"])
    edited = (await session.http(COMPLETE, id=review["taskId"], input={"action": "approve", "data": "The sky is blue, mostly.", "comment": "hedged"}))["completeHumanTask"]
    rate = await session.waiting("rate")
    invalid = (await session.http(COMPLETE, id=rate["taskId"], input={"action": "ok", "data": {"score": 9}}))["completeHumanTask"]
    refusals.append(invalid["errors"])
    rated = (await session.http(COMPLETE, id=rate["taskId"], input={"action": "ok", "data": {"score": 4}}))["completeHumanTask"]
    again = (await session.http(COMPLETE, id=rate["taskId"], input={"action": "ok", "data": {"score": 5}}))["completeHumanTask"]
    refusals.append(again["errors"])
    return {"inbox": inbox, "refusals": refusals, "completed": [edited, rated]}


async def drive(url, ws_url, key):
    imported = request(url, key, "mutation($d: JSON!) { importWorkflow(document: $d) { workflow { id } errors { code message } } }", {"d": WORKFLOW})["importWorkflow"]
    if imported["errors"]:
        raise RuntimeError(f"import refused: {imported['errors']}")
    workflow_id = imported["workflow"]["id"]
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
        ack = json.loads(await socket.recv())
        if ack["type"] != "connection_ack":
            raise RuntimeError(f"not acknowledged: {ack}")
        session = Session(url, key, socket)
        await session.subscribe("changes", CHANGES, w=workflow_id)
        run = (await session.http("mutation($w: ID!) { runWorkflow(workflowId: $w) { run { id } errors { code message } } }", w=workflow_id))["runWorkflow"]["run"]
        await session.subscribe("events", EVENTS, run=run["id"])
        receiving = asyncio.create_task(session.receive())
        answered = await answer(session, workflow_id)
        await receiving
        await socket.send(json.dumps({"id": "changes", "type": "complete"}))
    stored = request(url, key, "query($r: ID!) { run(id: $r) { status result nodeRuns { nodeId status } } }", {"r": run["id"]})["run"]
    return {**answered, "events": session.events, "changes": session.changes, "run": stored}


def main():
    url, ws_url, key = sys.argv[1:4]
    json.dump(asyncio.run(drive(url, ws_url, key)), sys.stdout)


if __name__ == "__main__":
    main()
