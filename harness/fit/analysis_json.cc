#include "harness/fit/analysis_json.h"

#include "harness/context/run_context.h"
#include "harness/json/json_writer.h"

namespace tickbench::harness {
namespace {

void WritePoints(JsonWriter& json, const analysis::Sweep& sweep) {
  json.Key("points");
  json.BeginArray();
  for (const analysis::SweepPoint& point : sweep.points) {
    json.BeginObject();
    json.NumberField("size_bytes", point.size_bytes);
    json.Key("values");
    json.BeginArray();
    for (double value : point.values) json.Number(value);
    json.EndArray();
    json.NumberField("mean", analysis::PointMean(point));
    json.EndObject();
  }
  json.EndArray();
}

void WriteSteps(JsonWriter& json, const SweepAnalysis& analyzed) {
  json.Key("steps");
  json.BeginArray();
  if (analyzed.steps.ok()) {
    for (const analysis::Step& step : analyzed.steps->steps) {
      json.BeginObject();
      json.NumberField("size_before", step.size_before);
      json.NumberField("size_after", step.size_after);
      json.StringField("kind", step.kind == analysis::StepKind::kJump ? "jump" : "slope_change");
      json.StringField("direction", step.direction == analysis::StepDirection::kUp ? "up" : "down");
      json.NumberField("magnitude", step.magnitude);
      json.NumberField("jump", step.jump);
      json.NumberField("jump_stderr", step.jump_stderr);
      json.StringField("found_by", "detector");
      json.EndObject();
    }
  }
  for (const analysis::ImpliedStep& step : analyzed.implied_steps) {
    json.BeginObject();
    json.NumberField("size_before", step.size_before);
    json.NumberField("size_after", step.size_after);
    json.StringField("kind", "jump");
    json.StringField("direction", step.jump >= 0 ? "up" : "down");
    json.NumberField("magnitude", step.jump);
    json.NumberField("jump", step.jump);
    json.NumberField("jump_stderr", step.jump_stderr);
    json.StringField("found_by", "layout");
    json.EndObject();
  }
  json.EndArray();
  json.StringField("steps_error", analyzed.steps.ok() ? "" : analyzed.steps.status().message());
}

}  // namespace

std::string FormatAnalysisJson(const std::string& file, const analysis::Sweep& sweep,
                               const SweepAnalysis& analyzed, const std::string& report) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "analyze");
  json.StringField("file", file);
  json.StringField("value_column", sweep.value_name);
  json.StringField("unit", sweep.unit);
  WritePoints(json, sweep);
  WriteSteps(json, analyzed);
  json.StringField("report", report);
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
