#!/usr/bin/env python3
"""An evaluation client written as a third party would write one, with nothing from Weft: GraphQL over
HTTP (urllib from the standard library) and the graphql-transport-ws protocol over WebSocket (the
`websockets` package). From the worked example in the repository's examples/ folder it imports the
workflow (published as version 1), builds a dataset from JSONL and CSV (a bad import refused first),
has a bad scorer refused, runs an experiment on version 1 following experimentProgress, reads the summary
and the results page by page, runs the draft after a change, and compares the two. A JSON report goes to
stdout.

    python3 experiment-client.py <http url> <ws url> <api key> <examples dir>
"""
import asyncio
import json
import os
import sys
import time
import urllib.request

import websockets

USER_ERRORS = "errors { code message path }"
START = f"mutation($input: StartExperimentInput!) {{ startExperiment(input: $input) {{ experiment {{ id status }} {USER_ERRORS} }} }}"
IMPORT_ROWS = f"mutation($id: ID!, $format: DatasetFormat!, $text: String!) {{ importDatasetRows(datasetId: $id, format: $format, text: $text) {{ added dataset {{ rowCount revision }} {USER_ERRORS} }} }}"
PROGRESS = "subscription($id: ID!) { experimentProgress(id: $id) { experimentId status rows completed failed } }"
SUMMARY = """query($id: ID!) { experiment(id: $id) { id version draft status progress
  summary { rows completed failed scores { scorer mean passRate } latencyP50Ms latencyP95Ms tokens costUsd } } }"""
RESULTS = """query($id: ID!, $after: String) { experiment(id: $id) { results(first: 8, after: $after) {
  totalCount pageInfo { hasNextPage endCursor }
  edges { node { position rowId runId completed output expected latencyMs scores { scorer score pass reason } } } } } }"""
COMPARE = """query($a: ID!, $b: ID!) { compareExperiments(a: $a, b: $b) { regressions improvements
  summaryA { scores { scorer mean } } summaryB { scores { scorer mean } } rows { rowId delta regressed improved } } }"""
BAD_JSONL = '{"inputs": {"country": "Chile"}, "expected": "Americas"}\n{"inputs": {"country": "Peru"}, "expectd": "Americas"}\n'
CSV = "country,expected,tags\nArgentina,Americas,americas\nAustralia,Oceania,oceania\n"


def request(url, key, query, variables=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode("utf-8")
    headers = {"content-type": "application/json", "authorization": f"Bearer {key}"}
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as response:
        result = json.load(response)
    if result.get("errors"):
        raise RuntimeError(f"GraphQL errors: {result['errors']}")
    return result["data"]


def mutate(url, key, query, variables, field):
    payload = request(url, key, query, variables)[field]
    if payload["errors"]:
        raise RuntimeError(f"{field} refused: {payload['errors']}")
    return payload


def read(examples, *path):
    with open(os.path.join(examples, *path), encoding="utf-8") as file:
        return file.read()


def build_dataset(url, key, examples):
    """18 rows from the example's JSONL, the last 2 as CSV; a JSONL with a bad second line is refused whole."""
    dataset_id = mutate(url, key, f'mutation {{ createDataset(input: {{ name: "continents (python)" }}) {{ dataset {{ id }} {USER_ERRORS} }} }}', {}, "createDataset")["dataset"]["id"]
    refused = request(url, key, IMPORT_ROWS, {"id": dataset_id, "format": "JSONL", "text": BAD_JSONL})["importDatasetRows"]
    lines = read(examples, "evaluations", "continents.jsonl").splitlines(keepends=True)
    jsonl = mutate(url, key, IMPORT_ROWS, {"id": dataset_id, "format": "JSONL", "text": "".join(lines[:18])}, "importDatasetRows")
    csv = mutate(url, key, IMPORT_ROWS, {"id": dataset_id, "format": "CSV", "text": CSV}, "importDatasetRows")
    return dataset_id, {"refused": {"added": refused["added"], "errors": refused["errors"]}, "added": [jsonl["added"], csv["added"]], "dataset": csv["dataset"]}


async def follow(ws_url, key, experiment_id):
    """experimentProgress until the server completes the stream: the state now, then one message per row."""
    messages = []
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
        ack = json.loads(await socket.recv())
        if ack["type"] != "connection_ack":
            raise RuntimeError(f"not acknowledged: {ack}")
        await socket.send(json.dumps({"id": "progress", "type": "subscribe", "payload": {"query": PROGRESS, "variables": {"id": experiment_id}}}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=120))
            if message["type"] == "ping":
                await socket.send(json.dumps({"type": "pong"}))
            elif message["type"] == "error" or (message["type"] == "next" and message["payload"].get("errors")):
                raise RuntimeError(message["payload"])
            elif message["type"] == "next":
                messages.append(message["payload"]["data"]["experimentProgress"])
            elif message["type"] == "complete":
                return messages


def results(url, key, experiment_id):
    """Every result, eight a page, following the cursors."""
    pages, after = [], None
    while True:
        page = request(url, key, RESULTS, {"id": experiment_id, "after": after})["experiment"]["results"]
        pages.append([edge["node"] for edge in page["edges"]])
        if not page["pageInfo"]["hasNextPage"]:
            return page["totalCount"], pages
        after = page["pageInfo"]["endCursor"]


def wait_by_polling(url, key, experiment_id):
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        experiment = request(url, key, SUMMARY, {"id": experiment_id})["experiment"]
        if experiment["status"] != "RUNNING":
            return experiment
        time.sleep(0.2)
    raise RuntimeError("the draft's experiment did not end")


def drive(url, ws_url, key, examples):
    document = json.loads(read(examples, "continents.json"))
    workflow_id = mutate(url, key, f"mutation($d: JSON!) {{ importWorkflow(document: $d, publish: true) {{ workflow {{ id }} {USER_ERRORS} }} }}", {"d": document}, "importWorkflow")["workflow"]["id"]
    dataset_id, dataset = build_dataset(url, key, examples)
    scorers = json.loads(read(examples, "evaluations", "scorers.json"))

    bad = request(url, key, START, {"input": {"workflowId": workflow_id, "datasetId": dataset_id, "version": 1, "scorers": [{"id": "r", "type": "regex", "pattern": "(a+)+\\1"}]}})["startExperiment"]
    version_one = mutate(url, key, START, {"input": {"workflowId": workflow_id, "datasetId": dataset_id, "version": 1, "scorers": scorers, "concurrency": 3}}, "startExperiment")["experiment"]
    progress = asyncio.run(follow(ws_url, key, version_one["id"]))
    summary = request(url, key, SUMMARY, {"id": version_one["id"]})["experiment"]
    total, pages = results(url, key, version_one["id"])

    better = json.loads(read(examples, "evaluations", "answer-better.json"))
    mutate(url, key, f'mutation($w: ID!, $p: JSONObject!) {{ updateNode(workflowId: $w, nodeId: "answer", input: {{ params: $p }}) {{ {USER_ERRORS} }} }}', {"w": workflow_id, "p": better["params"]}, "updateNode")
    draft = mutate(url, key, START, {"input": {"workflowId": workflow_id, "datasetId": dataset_id, "draft": True, "scorers": scorers}}, "startExperiment")["experiment"]
    draft_summary = wait_by_polling(url, key, draft["id"])
    comparison = request(url, key, COMPARE, {"a": version_one["id"], "b": draft["id"]})["compareExperiments"]
    return {"dataset": dataset, "badScorer": bad, "started": version_one, "progress": progress, "summary": summary,
            "totalCount": total, "pages": pages, "draftSummary": draft_summary, "comparison": comparison}


def main():
    url, ws_url, key, examples = sys.argv[1:5]
    json.dump(drive(url, ws_url, key, examples), sys.stdout)


if __name__ == "__main__":
    main()
