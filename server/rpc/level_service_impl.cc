#include "server/rpc/level_service_impl.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "collide/v1/level_service.pb.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/level_snapshot.h"
#include "server/levels/level_store.h"
#include "server/ops/log.h"
#include "server/ops/server_metrics.h"
#include "server/rpc/status_convert.h"

namespace collide::server {
namespace {

// PutLevel's work; the reactor only converts the status. `peer` is the
// caller's address, for the log.
absl::Status Put(LevelStore& store, const v1::PutLevelRequest& request,
                 v1::PutLevelResponse& response, const std::string& peer) {
  absl::StatusOr<std::string> id =
      formats::ParseLevelName(request.level(), "level");
  if (!id.ok()) return id.status();
  if (!request.has_content()) {
    return absl::InvalidArgumentError("content must be set");
  }
  if (!request.content().id().empty() && request.content().id() != *id) {
    return absl::InvalidArgumentError(
        absl::StrCat("content.id \"", request.content().id(),
                     "\" must be empty or equal the level id \"", *id, "\""));
  }
  v1::Level level = request.content();
  level.set_id(*id);
  absl::StatusOr<LevelStore::PutResult> put =
      store.Put(std::move(level), /*persist=*/true,
                {request.expected_content_hash(), request.expected_version()});
  if (!put.ok()) {
    // Field paths from the conversion start with "level." (and may name
    // another shape: "... duplicates level.shapes[0].id"); the request
    // carries the level as "content".
    absl::string_view message = put.status().message();
    if (absl::ConsumePrefix(&message, "level.")) {
      return absl::Status(
          put.status().code(),
          absl::StrCat("content.",
                       absl::StrReplaceAll(
                           message, {{" level.shapes[", " content.shapes["}})));
    }
    return put.status();
  }
  *response.mutable_summary() = DescribeSnapshot(*put->snapshot);
  response.set_created(put->created);
  Metrics().level_puts.Add();
  LogAt(LogSeverity::kInfo,
        {{"level_id", *id},
         {"version", put->snapshot->version},
         {"shapes", put->snapshot->level->shape_count()},
         {"created", put->created},
         {"peer", peer}},
        "level %s %s: version %d, %d shapes", LogValue(formats::LevelName(*id)),
        put->created ? "created" : "replaced", put->snapshot->version,
        put->snapshot->level->shape_count());
  return absl::OkStatus();
}

// PatchLevel's work; the reactor only converts the status.
absl::Status Patch(LevelStore& store, const v1::PatchLevelRequest& request,
                   v1::PatchLevelResponse& response, const std::string& peer) {
  absl::StatusOr<std::string> id =
      formats::ParseLevelName(request.level(), "level");
  if (!id.ok()) return id.status();
  absl::StatusOr<LevelStore::PutResult> patched = store.Patch(*id, request);
  if (!patched.ok()) return patched.status();
  *response.mutable_summary() = DescribeSnapshot(*patched->snapshot);
  Metrics().level_patches.Add();
  LogAt(LogSeverity::kInfo,
        {{"level_id", *id},
         {"version", patched->snapshot->version},
         {"upserts", request.upserts_size()},
         {"removals", request.remove_ids_size()},
         {"peer", peer}},
        "level %s patched: version %d, %d upserts, %d removals",
        LogValue(formats::LevelName(*id)), patched->snapshot->version,
        request.upserts_size(), request.remove_ids_size());
  return absl::OkStatus();
}

}  // namespace

absl::Status LevelServiceImpl::AdmitWrite(
    const grpc::CallbackServerContext& context,
    absl::string_view method) const {
  absl::Status admitted = writes_.Admit(context);
  if (!admitted.ok() && admitted.code() != absl::StatusCode::kUnimplemented) {
    // Refusals on the query port are not logged: they are a wrong port,
    // not an attempt at the admin listener.
    LogAt(LogSeverity::kWarning,
          {{"method", method},
           {"peer", context.peer()},
           {"status", admitted},
           {"code", absl::StatusCodeToString(admitted.code())}},
          "%s from %s refused: %s", method, LogValue(context.peer()),
          LogValue(admitted));
  }
  return admitted;
}

grpc::ServerUnaryReactor* LevelServiceImpl::PatchLevel(
    grpc::CallbackServerContext* context, const v1::PatchLevelRequest* request,
    v1::PatchLevelResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (absl::Status admitted = AdmitWrite(*context, "PatchLevel");
      !admitted.ok()) {
    reactor->Finish(ToGrpcStatus(admitted));
    return reactor;
  }
  const std::string peer = context->peer();
  const absl::Status status = Patch(store_, *request, *response, peer);
  if (!status.ok()) {
    LogAt(
        LogSeverity::kWarning,
        {{"level_name", request->level()}, {"status", status}, {"peer", peer}},
        "PatchLevel %s refused: %s", LogValue(request->level()),
        LogValue(status));
  }
  reactor->Finish(ToGrpcStatus(status));
  return reactor;
}

grpc::ServerUnaryReactor* LevelServiceImpl::PutLevel(
    grpc::CallbackServerContext* context, const v1::PutLevelRequest* request,
    v1::PutLevelResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (absl::Status admitted = AdmitWrite(*context, "PutLevel");
      !admitted.ok()) {
    reactor->Finish(ToGrpcStatus(admitted));
    return reactor;
  }
  const std::string peer = context->peer();
  const absl::Status status = Put(store_, *request, *response, peer);
  if (!status.ok()) {
    LogAt(
        LogSeverity::kWarning,
        {{"level_name", request->level()}, {"status", status}, {"peer", peer}},
        "PutLevel %s refused: %s", LogValue(request->level()),
        LogValue(status));
  }
  reactor->Finish(ToGrpcStatus(status));
  return reactor;
}

grpc::ServerUnaryReactor* LevelServiceImpl::DeleteLevel(
    grpc::CallbackServerContext* context, const v1::DeleteLevelRequest* request,
    v1::DeleteLevelResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (absl::Status admitted = AdmitWrite(*context, "DeleteLevel");
      !admitted.ok()) {
    reactor->Finish(ToGrpcStatus(admitted));
    return reactor;
  }
  absl::StatusOr<std::string> id =
      formats::ParseLevelName(request->level(), "level");
  absl::StatusOr<int64_t> deleted =
      id.ok() ? store_.Delete(*id, {request->expected_content_hash(),
                                    request->expected_version()})
              : absl::StatusOr<int64_t>(id.status());
  if (deleted.ok()) {
    response->set_deleted_version(*deleted);
    Metrics().level_deletes.Add();
    LogAt(LogSeverity::kInfo,
          {{"level_id", *id}, {"version", *deleted}, {"peer", context->peer()}},
          "level %s deleted (was version %d)", LogValue(request->level()),
          *deleted);
  } else {
    LogAt(LogSeverity::kWarning,
          {{"level_name", request->level()},
           {"status", deleted.status()},
           {"peer", context->peer()}},
          "DeleteLevel %s refused: %s", LogValue(request->level()),
          LogValue(deleted.status()));
  }
  reactor->Finish(ToGrpcStatus(deleted.status()));
  return reactor;
}

grpc::ServerUnaryReactor* LevelServiceImpl::ListLevels(
    grpc::CallbackServerContext* context,
    const v1::ListLevelsRequest* /*request*/,
    v1::ListLevelsResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  for (const std::shared_ptr<const LevelSnapshot>& snapshot : store_.List()) {
    *response->add_levels() = DescribeSnapshot(*snapshot);
  }
  if (skipped_ != nullptr) {
    for (const SkippedLevelFiles::File& file : skipped_->List()) {
      v1::SkippedLevelFile* out = response->add_skipped_files();
      out->set_level(formats::LevelName(file.level_id));
      out->set_file(file.path);
      out->set_error(file.error.ToString());
    }
  }
  reactor->Finish(ToGrpcStatus(absl::OkStatus()));
  return reactor;
}

grpc::ServerUnaryReactor* LevelServiceImpl::DescribeLevel(
    grpc::CallbackServerContext* context,
    const v1::DescribeLevelRequest* request,
    v1::DescribeLevelResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::StatusOr<std::shared_ptr<const LevelSnapshot>> snapshot =
      FindLevel(store_, request->level(), "level");
  if (snapshot.ok())
    *response->mutable_summary() = DescribeSnapshot(**snapshot);
  reactor->Finish(ToGrpcStatus(snapshot.status()));
  return reactor;
}

grpc::ServerUnaryReactor* LevelServiceImpl::GetLevel(
    grpc::CallbackServerContext* context, const v1::GetLevelRequest* request,
    v1::GetLevelResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::StatusOr<std::shared_ptr<const LevelSnapshot>> snapshot =
      FindLevel(store_, request->level(), "level");
  if (snapshot.ok()) {
    *response->mutable_content() = ContentOf(**snapshot);
    *response->mutable_summary() = DescribeSnapshot(**snapshot);
  }
  reactor->Finish(ToGrpcStatus(snapshot.status()));
  return reactor;
}

}  // namespace collide::server
