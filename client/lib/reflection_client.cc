#include "client/lib/reflection_client.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/descriptor_database.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"

namespace collide::client {

namespace {

namespace pb = google::protobuf;
namespace v1 = grpc::reflection::v1;
namespace v1alpha = grpc::reflection::v1alpha;

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

// One request and its answer on a stream of `Stub`'s service; the v1alpha
// messages are the v1 ones on the wire, so they are converted by bytes.
template <typename Stub, typename Request, typename Response>
grpc::Status Exchange(Stub& stub, grpc::ClientContext& context,
                      const v1::ServerReflectionRequest& question,
                      v1::ServerReflectionResponse& answer) {
  Request request;
  request.ParseFromString(question.SerializeAsString());
  auto stream = stub.ServerReflectionInfo(&context);
  Response response;
  const bool sent = stream->Write(request) && stream->WritesDone();
  const bool read = sent && stream->Read(&response);
  grpc::Status status = stream->Finish();
  if (status.ok() && !read) {
    status = grpc::Status(grpc::StatusCode::INTERNAL,
                          "the reflection stream ended without an answer");
  }
  if (status.ok()) answer.ParseFromString(response.SerializeAsString());
  return status;
}

// The descriptors of an answer's files in a pool of their own.
class AnsweredFiles {
 public:
  explicit AnsweredFiles(const v1::FileDescriptorResponse& files)
      : pool_(&database_) {
    for (const std::string& bytes : files.file_descriptor_proto()) {
      pb::FileDescriptorProto file;
      if (file.ParseFromString(bytes)) database_.Add(file);
    }
  }
  const pb::DescriptorPool& pool() const { return pool_; }

 private:
  pb::SimpleDescriptorDatabase database_;
  pb::DescriptorPool pool_;
};

}  // namespace

absl::StatusOr<ReflectionClient> ReflectionClient::Connect(
    const ClientOptions& options) {
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  if (!spec.ok()) return spec.status();
  return ReflectionClient(grpc::CreateCustomChannel(
                              spec->target, spec->credentials, spec->arguments),
                          options);
}

ReflectionClient::ReflectionClient(std::shared_ptr<grpc::Channel> channel,
                                   ClientOptions options)
    : channel_(std::move(channel)), options_(std::move(options)) {}

absl::StatusOr<v1::ServerReflectionResponse> ReflectionClient::Ask(
    const v1::ServerReflectionRequest& request) {
  auto context_for_call = [this] {
    auto context = std::make_unique<grpc::ClientContext>();
    context->set_deadline(
        absl::ToChronoTime(absl::Now() + options_.call_timeout));
    for (const auto& [key, value] : options_.metadata) {
      context->AddMetadata(key, value);
    }
    return context;
  };
  v1::ServerReflectionResponse answer;
  auto v1_stub = v1::ServerReflection::NewStub(channel_);
  std::unique_ptr<grpc::ClientContext> context = context_for_call();
  grpc::Status status =
      Exchange<v1::ServerReflection::Stub, v1::ServerReflectionRequest,
               v1::ServerReflectionResponse>(*v1_stub, *context, request,
                                             answer);
  protocol_ = "v1";
  if (status.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
    // A server older than grpc.reflection.v1.
    auto alpha_stub = v1alpha::ServerReflection::NewStub(channel_);
    context = context_for_call();
    status = Exchange<v1alpha::ServerReflection::Stub,
                      v1alpha::ServerReflectionRequest,
                      v1alpha::ServerReflectionResponse>(*alpha_stub, *context,
                                                         request, answer);
    protocol_ = "v1alpha";
  }
  if (!status.ok()) return FromGrpc(status);
  if (answer.has_error_response()) {
    return absl::Status(
        static_cast<absl::StatusCode>(answer.error_response().error_code()),
        answer.error_response().error_message());
  }
  return answer;
}

absl::StatusOr<std::vector<std::string>> ReflectionClient::ListServices() {
  v1::ServerReflectionRequest request;
  request.set_list_services("");
  absl::StatusOr<v1::ServerReflectionResponse> answer = Ask(request);
  if (!answer.ok()) return answer.status();
  std::vector<std::string> names;
  for (const v1::ServiceResponse& service :
       answer->list_services_response().service()) {
    names.push_back(service.name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::vector<std::string>> ReflectionClient::ListMethods(
    absl::string_view service) {
  v1::ServerReflectionRequest request;
  request.set_file_containing_symbol(std::string(service));
  absl::StatusOr<v1::ServerReflectionResponse> answer = Ask(request);
  if (!answer.ok()) return answer.status();
  AnsweredFiles files(answer->file_descriptor_response());
  const pb::ServiceDescriptor* found =
      files.pool().FindServiceByName(std::string(service));
  if (found == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("\"", service, "\" is not a service"));
  }
  std::vector<std::string> methods;
  for (int i = 0; i < found->method_count(); ++i) {
    methods.push_back(found->method(i)->full_name());
  }
  return methods;
}

absl::StatusOr<std::string> ReflectionClient::Describe(
    absl::string_view symbol) {
  v1::ServerReflectionRequest request;
  request.set_file_containing_symbol(std::string(symbol));
  absl::StatusOr<v1::ServerReflectionResponse> answer = Ask(request);
  if (!answer.ok()) return answer.status();
  AnsweredFiles files(answer->file_descriptor_response());
  const pb::DescriptorPool& pool = files.pool();
  const std::string name(symbol);
  const std::string head = absl::StrCat(name, " is a ");
  if (const auto* service = pool.FindServiceByName(name)) {
    return absl::StrCat(head, "service:\n", service->DebugString());
  }
  if (const auto* method = pool.FindMethodByName(name)) {
    return absl::StrCat(head, "method:\n", method->DebugString());
  }
  if (const auto* message = pool.FindMessageTypeByName(name)) {
    return absl::StrCat(head, "message:\n", message->DebugString());
  }
  if (const auto* enum_type = pool.FindEnumTypeByName(name)) {
    return absl::StrCat(head, "enum:\n", enum_type->DebugString());
  }
  if (const auto* field = pool.FindFieldByName(name)) {
    return absl::StrCat(head, "field:\n", field->DebugString());
  }
  if (const auto* value = pool.FindEnumValueByName(name)) {
    return absl::StrCat(head, "enum value:\n", value->DebugString());
  }
  return absl::NotFoundError(absl::StrCat("symbol \"", symbol,
                                          "\" is not in the files the server "
                                          "sent"));
}

}  // namespace collide::client
