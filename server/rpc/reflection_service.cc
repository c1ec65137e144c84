#include "server/rpc/reflection_service.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace collide::server {

namespace {

namespace pb = google::protobuf;

// What one port answers about: its services and the files they need.
class Scope {
 public:
  explicit Scope(std::vector<std::string> services)
      : services_(std::move(services)) {
    std::sort(services_.begin(), services_.end());
    services_.erase(std::unique(services_.begin(), services_.end()),
                    services_.end());
    const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
    for (const std::string& name : services_) {
      if (const pb::ServiceDescriptor* service = pool->FindServiceByName(name);
          service != nullptr) {
        AddWithImports(service->file());
      }
    }
  }

  const std::vector<std::string>& services() const { return services_; }

  bool Serves(const std::string& service) const {
    return std::binary_search(services_.begin(), services_.end(), service);
  }

  // `file` when this port answers for it, else nullptr.
  const pb::FileDescriptor* File(const pb::FileDescriptor* file) const {
    return file != nullptr && files_.contains(file) ? file : nullptr;
  }

  // The file defining `symbol` when this port answers for it: a service
  // or method only of a served service, any other symbol of a served file.
  const pb::FileDescriptor* FileOfSymbol(const std::string& symbol) const {
    const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
    if (const pb::ServiceDescriptor* service = pool->FindServiceByName(symbol);
        service != nullptr) {
      return Serves(service->full_name()) ? service->file() : nullptr;
    }
    if (const pb::MethodDescriptor* method = pool->FindMethodByName(symbol);
        method != nullptr) {
      return Serves(method->service()->full_name()) ? method->file() : nullptr;
    }
    return File(pool->FindFileContainingSymbol(symbol));
  }

 private:
  void AddWithImports(const pb::FileDescriptor* file) {
    if (!files_.insert(file).second) return;
    for (int i = 0; i < file->dependency_count(); ++i) {
      AddWithImports(file->dependency(i));
    }
  }

  std::vector<std::string> services_;
  absl::flat_hash_set<const pb::FileDescriptor*> files_;
};

// `file` and every file it imports, transitively, each once: what a client
// needs to build the file's descriptors.
void AddFileWithImports(const pb::FileDescriptor* file,
                        absl::flat_hash_set<const pb::FileDescriptor*>& seen,
                        std::vector<std::string>& out) {
  if (!seen.insert(file).second) return;
  pb::FileDescriptorProto proto;
  file->CopyTo(&proto);
  out.push_back(proto.SerializeAsString());
  for (int i = 0; i < file->dependency_count(); ++i) {
    AddFileWithImports(file->dependency(i), seen, out);
  }
}

// Fills `response` for `request`; v1 and v1alpha messages alike.
template <typename Request, typename Response>
void Answer(const Scope& scope, const Request& request, Response& response) {
  response.set_valid_host(request.host());
  *response.mutable_original_request() = request;
  const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
  const pb::FileDescriptor* file = nullptr;
  std::string missing;
  switch (request.message_request_case()) {
    case Request::kListServices:
      for (const std::string& name : scope.services()) {
        response.mutable_list_services_response()->add_service()->set_name(
            name);
      }
      return;
    case Request::kFileByFilename:
      file = scope.File(pool->FindFileByName(request.file_by_filename()));
      missing = absl::StrCat("file \"", request.file_by_filename(), "\"");
      break;
    case Request::kFileContainingSymbol:
      file = scope.FileOfSymbol(request.file_containing_symbol());
      missing =
          absl::StrCat("symbol \"", request.file_containing_symbol(), "\"");
      break;
    case Request::kFileContainingExtension: {
      const auto& extension = request.file_containing_extension();
      const pb::Descriptor* type =
          pool->FindMessageTypeByName(extension.containing_type());
      const pb::FieldDescriptor* field =
          type == nullptr
              ? nullptr
              : pool->FindExtensionByNumber(type, extension.extension_number());
      file = field == nullptr ? nullptr : scope.File(field->file());
      missing = absl::StrCat("extension ", extension.extension_number(),
                             " of \"", extension.containing_type(), "\"");
      break;
    }
    case Request::kAllExtensionNumbersOfType: {
      const std::string& name = request.all_extension_numbers_of_type();
      const pb::Descriptor* type = pool->FindMessageTypeByName(name);
      if (type != nullptr && scope.File(type->file()) != nullptr) {
        auto* numbers = response.mutable_all_extension_numbers_response();
        numbers->set_base_type_name(name);
        std::vector<const pb::FieldDescriptor*> extensions;
        pool->FindAllExtensions(type, &extensions);
        for (const pb::FieldDescriptor* extension : extensions) {
          numbers->add_extension_number(extension->number());
        }
        return;
      }
      missing = absl::StrCat("type \"", name, "\"");
      break;
    }
    default:
      response.mutable_error_response()->set_error_code(
          static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
      response.mutable_error_response()->set_error_message(
          "message_request must be set");
      return;
  }
  if (file == nullptr) {
    response.mutable_error_response()->set_error_code(
        static_cast<int>(grpc::StatusCode::NOT_FOUND));
    response.mutable_error_response()->set_error_message(
        absl::StrCat(missing, " not found"));
    return;
  }
  absl::flat_hash_set<const pb::FileDescriptor*> seen;
  std::vector<std::string> files;
  AddFileWithImports(file, seen, files);
  for (std::string& bytes : files) {
    response.mutable_file_descriptor_response()->add_file_descriptor_proto(
        std::move(bytes));
  }
}

// One reflection service over `Scope`; `Generated` is the generated
// ServerReflection class of v1 or v1alpha. Synchronous: a question is a
// map lookup and a few serialized descriptors.
template <typename Generated, typename Request, typename Response>
class ReflectionService final : public Generated::Service {
 public:
  explicit ReflectionService(const Scope& scope) : scope_(scope) {}

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* /*context*/,
      grpc::ServerReaderWriter<Response, Request>* stream) override {
    Request request;
    while (stream->Read(&request)) {
      Response response;
      Answer(scope_, request, response);
      if (!stream->Write(response)) break;
    }
    return grpc::Status::OK;
  }

 private:
  const Scope& scope_;
};

namespace v1 = grpc::reflection::v1;
namespace v1alpha = grpc::reflection::v1alpha;
using V1Service =
    ReflectionService<v1::ServerReflection, v1::ServerReflectionRequest,
                      v1::ServerReflectionResponse>;
using V1AlphaService = ReflectionService<v1alpha::ServerReflection,
                                         v1alpha::ServerReflectionRequest,
                                         v1alpha::ServerReflectionResponse>;

std::vector<std::string> WithReflection(std::vector<std::string> services) {
  services.push_back(ReflectionServices::kV1Name);
  services.push_back(ReflectionServices::kV1AlphaName);
  return services;
}

}  // namespace

const char ReflectionServices::kV1Name[] =
    "grpc.reflection.v1.ServerReflection";
const char ReflectionServices::kV1AlphaName[] =
    "grpc.reflection.v1alpha.ServerReflection";

struct ReflectionServices::Impl {
  explicit Impl(std::vector<std::string> services)
      : scope(WithReflection(std::move(services))), v1(scope), v1alpha(scope) {}
  Scope scope;
  V1Service v1;
  V1AlphaService v1alpha;
};

ReflectionServices::ReflectionServices(std::vector<std::string> services)
    : impl_(std::make_unique<Impl>(std::move(services))) {}

ReflectionServices::~ReflectionServices() = default;

grpc::Service* ReflectionServices::v1() { return &impl_->v1; }

grpc::Service* ReflectionServices::v1alpha() { return &impl_->v1alpha; }

}  // namespace collide::server
