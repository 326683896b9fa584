// Hand-made XNNPACK delegate blobs in ExecuTorch's format for the run-time half's tests: build an
// XnnGraph value by value and node by node, write it with the delegate's writer, initialise the
// backend on it (its named data in an in-memory map) and execute it on tensors.
//
//   GraphMaker g;
//   uint32_t x = g.input({2, 3}), y = g.output({2, 3});
//   g.node(xnnpack::NodeKind::Abs, {x}, {y});
//   absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
//   std::vector<Tensor> out = (*d)->run({randomTensor({2, 3}, 1)});
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/export_models.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_blob_writer.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy::testing {

namespace xnn = ::sy::xnnpack;

class GraphMaker {
 public:
  uint32_t input(xnn::Dims dims, xnn::Datatype d = xnn::Datatype::Fp32) { return external(std::move(dims), d, true); }
  uint32_t output(xnn::Dims dims, xnn::Datatype d = xnn::Datatype::Fp32) { return external(std::move(dims), d, false); }
  uint32_t internal(xnn::Dims dims, xnn::Datatype d = xnn::Datatype::Fp32) {
    xnn::XnnValue v;
    v.datatype = d;
    v.dims = std::move(dims);
    return add(std::move(v));
  }
  // A float constant (fp32) of `dims` holding `values`.
  uint32_t constant(xnn::Dims dims, const std::vector<float>& values) {
    return constantBytes(std::move(dims), xnn::Datatype::Fp32,
                         std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(values.data()),
                                              reinterpret_cast<const uint8_t*>(values.data() + values.size())));
  }
  uint32_t constantBytes(xnn::Dims dims, xnn::Datatype d, std::vector<uint8_t> bytes, xnn::QuantParams quant = {}) {
    data_.push_back(std::move(bytes));
    xnn::XnnValue v;
    v.datatype = d;
    v.dims = std::move(dims);
    v.data = data_.back().data();
    v.data_size = data_.back().size();
    v.quant = std::move(quant);
    return add(std::move(v));
  }
  // Value `v`'s quantization (per tensor).
  GraphMaker& quantize(uint32_t v, float scale, int32_t zero_point) {
    g_.values[v].quant.kind = xnn::QuantParams::Kind::PerTensor;
    g_.values[v].quant.scale = scale;
    g_.values[v].quant.zero_point = zero_point;
    return *this;
  }
  xnn::XnnNode& node(xnn::NodeKind kind, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    xnn::XnnNode n;
    n.kind = kind;
    n.debug_handle = static_cast<uint32_t>(g_.nodes.size() + 1);
    n.inputs.assign(inputs.begin(), inputs.end());
    n.outputs.assign(outputs.begin(), outputs.end());
    g_.nodes.push_back(std::move(n));
    return g_.nodes.back();
  }
  const xnn::XnnGraph& graph() const { return g_; }
  xnn::XnnGraph& graph() { return g_; }
  xnn::WrittenBlob write(xnn::ConstantPlacement placement = xnn::ConstantPlacement::NamedData) const {
    absl::StatusOr<xnn::WrittenBlob> w = xnn::writeXnnBlob(g_, placement);
    EXPECT_TRUE(w.ok()) << w.status();
    return w.ok() ? *std::move(w) : xnn::WrittenBlob{};
  }

 private:
  uint32_t external(xnn::Dims dims, xnn::Datatype d, bool is_input) {
    xnn::XnnValue v;
    v.datatype = d;
    v.dims = std::move(dims);
    v.is_input = is_input, v.is_output = !is_input;
    v.external_id = g_.num_externs++;
    return add(std::move(v));
  }
  uint32_t add(xnn::XnnValue v) {
    v.id = static_cast<uint32_t>(g_.values.size());
    g_.values.push_back(std::move(v));
    return static_cast<uint32_t>(g_.values.size() - 1);
  }
  xnn::XnnGraph g_;
  std::deque<std::vector<uint8_t>> data_;
};

// Named data held in memory, as a loaded program holds its own.
class InMemoryNamedData final : public NamedDataMap {
 public:
  explicit InMemoryNamedData(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& entries) {
    for (const auto& [key, bytes] : entries) entries_[key] = std::make_shared<const std::vector<uint8_t>>(bytes);
  }
  absl::StatusOr<FreeableBuffer> get_data(std::string_view key) const override {
    auto it = entries_.find(std::string(key));
    if (it == entries_.end()) return absl::NotFoundError("no named data '" + std::string(key) + "'");
    return FreeableBuffer(it->second->data(), it->second->size(), it->second);
  }
  size_t num_keys() const override { return entries_.size(); }
  absl::StatusOr<std::string_view> get_key(size_t index) const override {
    auto it = entries_.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(index));
    return std::string_view(it->first);
  }

 private:
  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> entries_;
};

// The XNNPACK backend initialised on a written blob; destroyed with it.
class BlobDelegate {
 public:
  // `options`: run-time options ({"placement", "host"}).
  static absl::StatusOr<std::unique_ptr<BlobDelegate>> init(const xnn::WrittenBlob& blob,
                                                            std::vector<std::pair<std::string, std::string>> options = {}) {
    BackendInterface* backend = get_backend_class("XnnpackBackend");
    if (backend == nullptr) return absl::NotFoundError("XnnpackBackend is not registered");
    std::unique_ptr<BlobDelegate> d(new BlobDelegate(backend));
    d->options_ = std::move(options);
    std::vector<CompileSpec> specs;
    for (const auto& [key, value] : d->options_) {
      specs.push_back({key, absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(value.data()), value.size())});
    }
    InMemoryNamedData named(blob.named_data);
    FreeableBuffer buffer(blob.bytes.data(), blob.bytes.size(), nullptr);
    BackendInitContext context{"forward", 0, &named, specs};
    absl::StatusOr<DelegateHandle*> handle = backend->init(context, &buffer, {});
    if (!handle.ok()) return handle.status();
    d->handle_ = *handle;
    return d;
  }
  ~BlobDelegate() {
    if (handle_ != nullptr) backend_->destroy(handle_);
  }
  // Executes on `args` (every external value, by external id; outputs are written in place).
  absl::Status execute(const std::vector<Tensor>& args) {
    std::vector<IValue> values;
    for (const Tensor& t : args) values.emplace_back(t);
    std::vector<IValue*> pointers;
    for (IValue& v : values) pointers.push_back(&v);
    return execute(absl::MakeSpan(pointers));
  }
  // The same on arguments already boxed (allocates nothing itself).
  absl::Status execute(absl::Span<IValue*> args) {
    BackendExecutionContext context{"forward", 0};
    return backend_->execute(context, handle_, args);
  }
  // Executes `graph` on `inputs`, returning its outputs (Float, allocated here).
  std::vector<Tensor> run(const xnn::XnnGraph& graph, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> args(graph.num_externs);
    std::vector<Tensor> outputs;
    size_t next_input = 0;  // inputs in the order GraphMaker gave them external ids
    for (const xnn::XnnValue& v : graph.values) {
      if (v.is_input) args[v.external_id] = inputs.at(next_input++);
      if (v.is_output) args[v.external_id] = sy::empty(std::vector<int64_t>(v.dims.begin(), v.dims.end()));
    }
    const absl::Status s = execute(args);
    EXPECT_TRUE(s.ok()) << s;
    for (const xnn::XnnValue& v : graph.values) {
      if (v.is_output) outputs.push_back(args[v.external_id]);
    }
    return outputs;
  }

 private:
  explicit BlobDelegate(BackendInterface* backend) : backend_(backend) {}
  BackendInterface* backend_;
  DelegateHandle* handle_ = nullptr;
  std::vector<std::pair<std::string, std::string>> options_;
};

// The first XNNPACK delegate's blob in a program file, with the program's named data (for running
// a published program's delegate directly); nullopt when it has none.
struct ProgramDelegate {
  std::vector<uint8_t> blob;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named;
};
inline std::optional<ProgramDelegate> xnnpackDelegateOf(const std::vector<uint8_t>& file) {
  if (file.size() < 32 || std::memcmp(file.data() + 8, "eh00", 4) != 0) return std::nullopt;
  uint64_t base = 0;
  std::memcpy(&base, file.data() + 24, 8);
  const pte::Program* p = pte::GetProgram(file.data());
  auto segment = [&](uint32_t i) {
    const pte::DataSegment* s = p->segments()->Get(i);
    return std::vector<uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(base + s->offset()),
                                file.begin() + static_cast<std::ptrdiff_t>(base + s->offset() + s->size()));
  };
  ProgramDelegate out;
  for (const pte::BackendDelegate* d : *p->execution_plan()->Get(0)->delegates()) {
    if (d->id()->str() != "XnnpackBackend") continue;
    out.blob = segment(d->processed()->index());
    break;
  }
  if (out.blob.empty()) return std::nullopt;
  if (p->named_data() != nullptr) {
    for (const pte::NamedData* n : *p->named_data()) out.named.emplace_back(n->key()->str(), segment(n->segment_index()));
  }
  return out;
}

}  // namespace sy::testing
