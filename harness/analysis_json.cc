#include "harness/analysis_json.h"

#include "harness/json_writer.h"
#include "harness/run_context.h"

namespace tickbench::harness {
namespace {

void WritePoints(JsonWriter& json, const analysis::Sweep& sweep) {
  json.Key("points");
  json.BeginArray();
  for (const analysis::SweepPoint& point : sweep.points) {
    json.BeginObject();
    json.Key("size_bytes"); json.Number(point.size_bytes);
    json.Key("values");
    json.BeginArray();
    for (double value : point.values) json.Number(value);
    json.EndArray();
    json.Key("mean"); json.Number(analysis::PointMean(point));
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
      json.Key("size_before"); json.Number(step.size_before);
      json.Key("size_after"); json.Number(step.size_after);
      json.Key("kind");
      json.String(step.kind == analysis::StepKind::kJump ? "jump" : "slope_change");
      json.Key("direction");
      json.String(step.direction == analysis::StepDirection::kUp ? "up" : "down");
      json.Key("magnitude"); json.Number(step.magnitude);
      json.Key("jump"); json.Number(step.jump);
      json.Key("jump_stderr"); json.Number(step.jump_stderr);
      json.Key("found_by"); json.String("detector");
      json.EndObject();
    }
  }
  for (const analysis::ImpliedStep& step : analyzed.implied_steps) {
    json.BeginObject();
    json.Key("size_before"); json.Number(step.size_before);
    json.Key("size_after"); json.Number(step.size_after);
    json.Key("kind"); json.String("jump");
    json.Key("direction"); json.String(step.jump >= 0 ? "up" : "down");
    json.Key("magnitude"); json.Number(step.jump);
    json.Key("jump"); json.Number(step.jump);
    json.Key("jump_stderr"); json.Number(step.jump_stderr);
    json.Key("found_by"); json.String("layout");
    json.EndObject();
  }
  json.EndArray();
  json.Key("steps_error");
  json.String(analyzed.steps.ok() ? "" : analyzed.steps.status().message());
}

}  // namespace

std::string FormatAnalysisJson(const std::string& file, const analysis::Sweep& sweep,
                               const SweepAnalysis& analyzed, const std::string& report) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "analyze");
  json.Key("file"); json.String(file);
  json.Key("value_column"); json.String(sweep.value_name);
  json.Key("unit"); json.String(sweep.unit);
  WritePoints(json, sweep);
  WriteSteps(json, analyzed);
  json.Key("report"); json.String(report);
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
