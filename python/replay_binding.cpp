// Traces: a trace file (text or binary) or a text trace in a string,
// replayed under a preset, the summary as dicts and lists whose keys are the
// results schema's (docs/results-schema.md); and a text trace's records as
// the reader of text traces reads them (sim/trace/trace_text.hpp), so that
// validate/'s scripts read the format through it, not by a reading of their
// own.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "model/bank_model.hpp"
#include "python/bindings.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bankcheck::python {
namespace {

/// The costs of a scope; none when none of its instructions was costed but some were not
/// modelled (the schema's rule: an unknown cost is never 0).
nb::dict totals_of(const CostTotals& t, std::uint64_t unmodelled) {
  nb::dict d;
  d["instructions"] = t.instructions;
  d["lane_accesses"] = t.lane_accesses;
  const bool costed = t.instructions > 0 || unmodelled == 0;
  d["wavefronts"] = costed ? nb::cast(t.wavefronts) : nb::none();
  d["ideal"] = costed ? nb::cast(t.ideal) : nb::none();
  d["conflicts"] = costed ? nb::cast(t.conflicts()) : nb::none();
  d["worst_degree"] = costed ? nb::cast(t.worst_degree) : nb::none();
  d["modelled"] = unmodelled == 0;
  d["unmodelled_instructions"] = unmodelled;
  // As the kernel-level counters count them (docs/results-schema.md, totals).
  nb::dict kernel;
  kernel["wavefronts"] = t.kernel_counter_wavefronts();
  kernel["conflicts"] = t.kernel_counter_conflicts();
  d["kernel_counter"] = costed ? nb::object(kernel) : nb::none();
  return d;
}

nb::object worst_of(const WorstInstruction& w, const BankModel& model) {
  if (!w.present) return nb::none();
  nb::dict d;
  d["index"] = w.index;
  d["site"] = w.site;
  d["op"] = std::string(op_name(w.op));
  d["width"] = w.width;
  d["line"] = w.position.unit == RecordPosition::Unit::line ? nb::cast(w.position.value) : nb::none();
  d["wavefronts"] = w.cost.wavefronts;
  d["ideal"] = w.cost.ideal;
  d["conflicts"] = w.cost.conflicts();
  d["degree"] = w.cost.degree;
  const ConflictCulprit c = model.culprit(w.request());
  d["bank"] = c.lanes.empty() ? nb::none() : nb::cast(c.bank);
  d["lanes"] = c.lanes;
  return d;
}

nb::dict summary_of(const ReplaySummary& s, const BankModel& model) {
  nb::dict d;
  d["model"] = s.model;
  d["model_description"] = model.describe();
  d["warp"] = s.warp;
  d["totals"] = totals_of(s.totals, s.unmodelled_instructions());
  nb::list sites;
  for (const SiteTotals& site : s.sites) {
    nb::dict row = totals_of(site.totals, site.unmodelled);
    row["site"] = site.site;
    row["worst"] = worst_of(site.worst, model);
    sites.append(row);
  }
  d["sites"] = sites;
  nb::list unmodelled;
  for (const UnmodelledKind& k : s.unmodelled) {
    nb::dict row;
    row["op"] = std::string(op_name(k.op));
    row["width"] = k.width;
    row["instructions"] = k.instructions;
    row["lane_accesses"] = k.lane_accesses;
    unmodelled.append(row);
  }
  d["unmodelled"] = unmodelled;
  d["worst"] = worst_of(s.worst, model);
  nb::dict global;
  global["instructions"] = s.global.instructions;
  global["lane_accesses"] = s.global.lane_accesses;
  global["sectors"] = s.global.sectors;
  global["ideal_sectors"] = s.global.ideal_sectors;
  global["lines"] = s.global.lines;
  global["pages"] = s.global.pages;
  d["global"] = global;
  return d;
}

/// Replay under the preset, its warp the trace's (as `bankcheck replay` does).
nb::dict replay_source(TraceSource& source, std::string_view preset) {
  const BankModel model = make_preset(preset, source.warp());
  ReplaySummary summary;
  {
    nb::gil_scoped_release unlocked;
    summary = replay(source, model);
  }
  return summary_of(summary, model);
}

/// A text trace held in a string, read through the same reader as a file.
/// The newline it gains changes nothing (blank lines are skipped) and keeps
/// the buffer non-empty, which fmemopen requires.
class TextInput {
 public:
  TextInput(std::string text, std::string name)
      : text_(std::move(text) + '\n'),
        name_(std::move(name)),
        stream_(::fmemopen(text_.data(), text_.size(), "r"), &std::fclose) {
    if (!stream_) throw TraceError::in_file(name_, "cannot read the text");
  }
  /// The text as a file named `name` in messages; valid while this lives.
  InputFile file() const { return InputFile(stream_.get(), name_); }

 private:
  std::string text_;
  std::string name_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream_;
};

/// One token per lane as Python sees it: the address, None for an idle lane
/// ('-'), "z" for a copy lane that reads nothing (a zero-filling source).
nb::list lanes_of(std::span<const std::uint64_t> lanes) {
  nb::list out;
  for (const std::uint64_t a : lanes) {
    if (a == kInactive)
      out.append(nb::none());
    else if (a == kZeroFill)
      out.append(nb::str("z"));
    else
      out.append(a);
  }
  return out;
}

nb::dict record_of(const TraceRecord& r, const TextTraceReader& reader) {
  nb::dict d;
  d["site"] = reader.sites().name(r.site);
  d["op"] = std::string(op_name(r.request.op));
  d["width"] = r.request.width;
  d["addresses"] = lanes_of(r.request.addr);
  d["sources"] = r.request.source.empty() ? nb::none() : nb::object(lanes_of(r.request.source));
  d["line"] = reader.line();
  return d;
}

nb::list trace_records(std::string text, const std::string& name) {
  const TextInput input(std::move(text), name);
  TextTraceReader reader(input.file());
  nb::list out;
  TraceRecord record;
  while (reader.next(record)) out.append(record_of(record, reader));
  return out;
}

}  // namespace

void bind_replay(nb::module_& m) {
  m.def(
      "replay",
      [](const std::string& path, std::string_view model) {
        const auto source = open_trace(path);
        return replay_source(*source, model);
      },
      "path"_a, "model"_a = "sm90",
      "Replay a trace file (text or binary, docs/trace-format.md) under a preset: a dict with 'totals', "
      "'sites' (one dict per site), 'unmodelled' (per access kind), 'worst' and 'global'.");
  m.def(
      "replay_text",
      [](std::string text, std::string_view model, const std::string& name) {
        const TextInput input(std::move(text), name);
        const auto source = open_trace(input.file());
        return replay_source(*source, model);
      },
      "text"_a, "model"_a = "sm90", "name"_a = "<string>",
      "Replay a text trace given as a string (docs/trace-format.md); as replay().");
  m.def("trace_records", &trace_records, "text"_a, "name"_a = "<string>",
        "The instruction records of a text trace given as a string (docs/trace-format.md), in order, as the "
        "library's reader reads them: per record a dict with 'site' ('' without @site), 'op' (the trace token: ld, "
        "st, cpasync, cpasync.cg, ...), 'width', 'addresses' (one per lane of the warp: the byte address, None for "
        "an idle lane), 'sources' (a copy's source addresses after 'from', \"z\" for a zero-filling lane; None "
        "where the record has none) and 'line' (1-based). Comments, blank lines and the warp, at and expect lines "
        "are not records. TraceError (a ValueError) naming name:line for a malformed line.");
}

}  // namespace bankcheck::python
