"""Gives every JSON body in openapi.yaml that has no example a real one: from the exchanges a run of the
suite recorded (FITCIRCLE_RECORD_EXCHANGES, see scripts/record-examples.sh), for each body the richest
answer or request that fits its schema, its lists cut to two items. Examples already written are kept; a
new one goes on the named schema (so every body that uses it shows it) or, for a schema written in place,
on the media type. Prints what it could not find an example for.

usage: record_examples.py EXCHANGES.jsonl openapi.yaml"""
import json
import re
import sys

import yaml

import document as doc

STRANGE = re.compile(r"[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
# What the tests name their own machinery: an example showing it teaches nothing about the API.
MACHINERY = re.compile(
    r"matrix|127\.0\.0\.1|fitcircle\.test|\bspare\b|\btest|fuzz|^p\d+$|^user\d+|Error\(|[<>]|-[0-9a-f]{8}@"
    r"|^(Asker|Ousted|Member|Guest|Circle|Owner) \d+$|^\s|\s$",
    re.I,
)


def trimmed(value, schema, document):
    """Lists cut to one item (or the schema's minimum), recursively; an object's members in the order its
    schema lists them."""
    schema = doc.resolved(document, schema) or {}
    if isinstance(value, list):
        keep = max(1, schema.get("minItems", 0))
        return [trimmed(item, schema.get("items", {}), document) for item in value[:keep]]
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties") if isinstance(schema.get("additionalProperties"), dict) else {}
        order = list(properties) + sorted(key for key in value if key not in properties)
        return {key: trimmed(value[key], properties.get(key, extra), document) for key in order if key in value}
    return value


def richness(value):
    """How much an example shows: its filled leaves; a strange or very long text makes it a poor one."""
    if isinstance(value, dict):
        return sum(richness(item) for item in value.values())
    if isinstance(value, list):
        return sum(richness(item) for item in value)
    if value is None:
        return 0
    if isinstance(value, str) and (len(value) > 300 or STRANGE.search(value)):
        return -1000
    if isinstance(value, str) and MACHINERY.search(value):
        return -20
    return 1


def targets(document):
    """Every JSON body without an example: (key, schema, description), keyed by the named schema or by
    (operation, 'request' | status, media type) for one written in place."""
    found = {}
    for path, method, operation in doc.operations(document):
        places = []
        body = doc.request_body(document, operation)
        if body:
            places += [("request", kind, media) for kind, media in doc.json_media(body.get("content"))]
        for status, answer in operation.get("responses", {}).items():
            answer = doc.response(document, answer)
            places += [(status, kind, media) for kind, media in doc.json_media((answer or {}).get("content"))]
        for where, kind, media in places:
            if "example" in media or "examples" in media:
                continue
            schema = media.get("schema", {})
            if "$ref" in schema:
                name = schema["$ref"].split("/")[-1]
                named = document["components"]["schemas"][name]
                if "example" not in named and "examples" not in named:
                    found.setdefault(name, (schema, []))[1].append((operation["operationId"], where))
            else:
                found[(operation["operationId"], where, kind)] = (schema, [(operation["operationId"], where)])
    return found


def candidates(document, exchanges):
    """(operationId, 'request' | status, value) for every recorded JSON request and answer."""
    routes = [(doc.path_pattern(path), path.count("{"), method, operation)
              for path, method, operation in doc.operations(document)]
    for exchange in exchanges:
        path = exchange["uri"].split("?")[0]
        method = exchange["method"].lower()
        matches = sorted((holes, operation) for pattern, holes, m, operation in routes
                         if m == method and pattern.match(path))
        if not matches:
            continue
        operation = matches[0][1]["operationId"]
        status = str(exchange["status"])
        if exchange["request"] is not None and status.startswith("2"):
            yield operation, "request", exchange["request"]
        if exchange["answer"] is not None:
            yield operation, status, exchange["answer"]


def chosen(document, found, exchanges):
    best = {}
    uses = {}
    for key, (schema, places) in found.items():
        for place in places:
            uses.setdefault(place, []).append(key)
    for operation, where, value in candidates(document, exchanges):
        for key in uses.get((operation, where), []):
            schema = found[key][0]
            value = trimmed(value, schema, document)
            score = richness(value)
            if key in best and best[key][0] >= score:
                continue
            if doc.errors(document, schema, value):
                continue
            best[key] = (score, value)
    return {key: value for key, (score, value) in best.items()}


def block(value, indent):
    text = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)
    return [" " * indent + line for line in text.rstrip("\n").split("\n")]


def insert_named(lines, name, value):
    """After `    Name:` in components/schemas, an `example:` at the schema's own indent."""
    header = re.compile(rf"^    {re.escape(name)}:\s*$")
    start = next(i for i, line in enumerate(lines) if line.startswith("  schemas:"))
    for index in range(start, len(lines)):
        if header.match(lines[index]):
            lines[index + 1:index + 1] = ["      example:"] + block(value, 8)
            return True
    return False


def insert_in_place(lines, operation, where, kind, value):
    """Under the media type of `operation`'s request or `where` answer, an `example:` beside its schema."""
    start = next((i for i, line in enumerate(lines) if re.search(rf"operationId:\s*{operation}\s*$", line)), None)
    if start is None:
        return False
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) < indent), len(lines))
    section = "requestBody:" if where == "request" else None
    index = start
    if section:
        index = next(i for i in range(start, end) if lines[i].strip() == section)
    else:
        index = next(i for i in range(start, end) if lines[i].strip() in (f"'{where}':", f'"{where}":', f"{where}:"))
    media = next(i for i in range(index, end) if lines[i].strip() == f"{kind}:")
    own = len(lines[media]) - len(lines[media].lstrip()) + 2
    lines[media + 1:media + 1] = [" " * own + "example:"] + block(value, own + 2)
    return True


def main(exchanges_path, document_path):
    document = doc.load(document_path)
    with open(exchanges_path) as file:
        exchanges = [json.loads(line) for line in file if line.strip()]
    found = targets(document)
    examples = chosen(document, found, exchanges)
    with open(document_path) as file:
        lines = file.read().split("\n")
    missing = []
    for key in sorted(found, key=str):
        if key not in examples:
            missing.append(f"{key}: used by {found[key][1]}")
            continue
        done = (insert_named(lines, key, examples[key]) if isinstance(key, str)
                else insert_in_place(lines, *key, examples[key]))
        if not done:
            missing.append(f"{key}: not found in the text")
    with open(document_path, "w") as file:
        file.write("\n".join(lines))
    print(f"{len(found) - len(missing)} examples recorded; without one:", file=sys.stderr)
    for line in missing:
        print("  " + line, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
