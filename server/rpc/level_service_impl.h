// LevelService over gRPC's callback API: administration of the LevelStore
// (put, delete, list, describe, get). Validation and building happen in the
// store (MakeLevelSnapshot with the server's limits); this adapter converts
// requests and statuses and logs every level change. Writes (PutLevel,
// DeleteLevel) pass an AdminGate first (admin_gate.h): the query port's
// instance refuses them, the admin listener's checks credentials.
#ifndef COLLIDE_SERVER_RPC_LEVEL_SERVICE_IMPL_H_
#define COLLIDE_SERVER_RPC_LEVEL_SERVICE_IMPL_H_

#include <utility>

#include "absl/strings/string_view.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "collide/v1/level_service.pb.h"
#include "grpcpp/grpcpp.h"
#include "server/levels/level_store.h"
#include "server/levels/skipped_level_files.h"
#include "server/ops/admin_gate.h"

namespace collide::server {

class LevelServiceImpl final : public v1::LevelService::CallbackService {
 public:
  // `store`, and `skipped` unless null (ListLevels then reports no skipped
  // files), must outlive the service. Each write is refused with
  // writes.Admit's status, logged with the caller's peer, unless OK; the
  // level is then left as it was.
  LevelServiceImpl(LevelStore& store, AdminGate writes,
                   const SkippedLevelFiles* skipped = nullptr)
      : store_(store), writes_(std::move(writes)), skipped_(skipped) {}

  // INVALID_ARGUMENT for a bad name, a content.id that differs from it, or
  // an invalid level (naming the field, "level.shapes[3]..."),
  // RESOURCE_EXHAUSTED over the limits, the file error's code when it
  // cannot be persisted; on any error the old level keeps serving.
  grpc::ServerUnaryReactor* PutLevel(grpc::CallbackServerContext* context,
                                     const v1::PutLevelRequest* request,
                                     v1::PutLevelResponse* response) override;
  // NOT_FOUND for an id not served.
  grpc::ServerUnaryReactor* PatchLevel(
      grpc::CallbackServerContext* context,
      const v1::PatchLevelRequest* request,
      v1::PatchLevelResponse* response) override;
  grpc::ServerUnaryReactor* DeleteLevel(
      grpc::CallbackServerContext* context,
      const v1::DeleteLevelRequest* request,
      v1::DeleteLevelResponse* response) override;
  // Every level, and the level directory's files skipped.
  grpc::ServerUnaryReactor* ListLevels(
      grpc::CallbackServerContext* context,
      const v1::ListLevelsRequest* request,
      v1::ListLevelsResponse* response) override;
  // NOT_FOUND for an id not served.
  grpc::ServerUnaryReactor* DescribeLevel(
      grpc::CallbackServerContext* context,
      const v1::DescribeLevelRequest* request,
      v1::DescribeLevelResponse* response) override;
  // NOT_FOUND for an id not served.
  grpc::ServerUnaryReactor* GetLevel(grpc::CallbackServerContext* context,
                                     const v1::GetLevelRequest* request,
                                     v1::GetLevelResponse* response) override;

 private:
  // The refusal of a write `method` the gate does not admit (OK: admitted).
  absl::Status AdmitWrite(const grpc::CallbackServerContext& context,
                          absl::string_view method) const;

  LevelStore& store_;
  const AdminGate writes_;
  const SkippedLevelFiles* const skipped_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_LEVEL_SERVICE_IMPL_H_
