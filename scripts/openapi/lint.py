"""What the Swift lint (OpenAPILintTests) cannot check without a JSON Schema validator: the document is
valid OpenAPI 3.1 (openapi-spec-validator), and every example in it fits the schema it illustrates — on a
schema, a property or a media type — so an example cannot drift from what the server answers.

usage: lint.py openapi.yaml"""
import sys

from openapi_spec_validator import validate

import document as doc


def schema_examples(document, node, where, found):
    """Examples written on schemas: `example` and `examples` (a list, in JSON Schema) on any schema."""
    if not isinstance(node, dict):
        return
    for value in ([node["example"]] if "example" in node else []) + list(node.get("examples", []) or []):
        found.append((where, node, value))
    for key in ("properties", "patternProperties", "$defs"):
        for name, child in (node.get(key) or {}).items():
            schema_examples(document, child, f"{where}.{name}", found)
    for key in ("items", "additionalProperties", "not", "contains"):
        schema_examples(document, node.get(key), f"{where}[{key}]", found)
    for key in ("allOf", "oneOf", "anyOf", "prefixItems"):
        for index, child in enumerate(node.get(key) or []):
            schema_examples(document, child, f"{where}.{key}[{index}]", found)


def media_examples(document, found):
    """Examples written on media types: `example` and each of `examples`' values."""
    def media(content, where):
        for kind, entry in (content or {}).items():
            schema = entry.get("schema", {})
            schema_examples(document, schema, f"{where} {kind} schema", found)
            if "example" in entry:
                found.append((f"{where} {kind}", schema, entry["example"]))
            for name, example in (entry.get("examples") or {}).items():
                if "value" in example:
                    found.append((f"{where} {kind} {name}", schema, example["value"]))

    for path, method, operation in doc.operations(document):
        where = operation["operationId"]
        body = doc.request_body(document, operation)
        if body:
            media(body.get("content"), f"{where} request")
        for status, answer in operation.get("responses", {}).items():
            if "$ref" not in answer:
                media(answer.get("content"), f"{where} {status}")
        for parameter in operation.get("parameters", []):
            if "$ref" not in parameter:
                schema_examples(document, parameter.get("schema"), f"{where} {parameter.get('name')}", found)
    for name, answer in document["components"].get("responses", {}).items():
        media(answer.get("content"), f"responses.{name}")
    for name, parameter in document["components"].get("parameters", {}).items():
        schema_examples(document, parameter.get("schema"), f"parameters.{name}", found)


def main(path):
    document = doc.load(path)
    validate(document)
    found = []
    for name, schema in document["components"]["schemas"].items():
        schema_examples(document, schema, name, found)
    media_examples(document, found)
    wrong = [(where, problem) for where, schema, value in found for problem in doc.errors(document, schema, value)]
    for where, problem in wrong:
        print(f"{where}: the example does not fit: {problem}", file=sys.stderr)
    print(f"openapi.yaml: valid OpenAPI; {len(found)} examples, {len(wrong)} problems.", file=sys.stderr)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main(sys.argv[1])
