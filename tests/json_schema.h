// A validator for the subset of JSON Schema (2020-12) that docs/tickbench.schema.json
// uses: "type" (a name or a list; "number" takes integers), "required", "properties",
// "items", "enum" and "const" (strings, numbers, booleans), "oneOf", "minimum", and "$ref"
// to "#/$defs/NAME". Any other keyword is an error in the schema, so that a schema never
// seems to check what this validator ignores.
#ifndef TESTS_JSON_SCHEMA_H_
#define TESTS_JSON_SCHEMA_H_

#include <string>
#include <vector>

#include "harness/json/json_reader.h"

namespace tickbench::testing {

// The places where `document` breaks `schema` ("$.results[0].averaged: required key
// 'rtt_ns' missing"), empty when it conforms. `root` is the schema document that "$ref"
// resolves in (usually `schema` itself).
std::vector<std::string> ValidateJson(const harness::JsonValue& document,
                                      const harness::JsonValue& schema,
                                      const harness::JsonValue& root);

}  // namespace tickbench::testing

#endif  // TESTS_JSON_SCHEMA_H_
