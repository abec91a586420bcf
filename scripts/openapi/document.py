"""The API's document as the lint and the example recorder read it: parsed once, its operations listed, a
schema checked against a value with its `$ref`s resolved in the document (JSON Schema 2020-12, which
OpenAPI 3.1 schemas are)."""
import re

import yaml
from jsonschema import Draft202012Validator

JSON_TYPES = ("application/json", "application/problem+json")
METHODS = ("get", "put", "post", "patch", "delete")


def load(path):
    with open(path) as file:
        return yaml.safe_load(file)


def operations(document):
    """(path, method, operation) for every operation."""
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if isinstance(item.get(method), dict):
                yield path, method, item[method]


def request_body(document, operation):
    body = operation.get("requestBody")
    if body and "$ref" in body:
        body = document["components"]["requestBodies"][body["$ref"].split("/")[-1]]
    return body


def response(document, answer):
    if answer and "$ref" in answer:
        return document["components"]["responses"][answer["$ref"].split("/")[-1]]
    return answer


def json_media(content):
    """The JSON media types of a `content` map: (type, media)."""
    return [(kind, media) for kind, media in (content or {}).items() if kind in JSON_TYPES]


def resolved(document, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].split("/")[-1]]
    return schema


def errors(document, schema, value):
    """What is wrong with `value` for `schema` (empty when it fits), `$ref`s resolved in the document."""
    root = dict(schema)
    root["components"] = document["components"]
    validator = Draft202012Validator(root)
    return [f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message[:160]}" for error in
            validator.iter_errors(value)]


def path_pattern(template):
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
