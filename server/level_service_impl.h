// LevelService over gRPC's callback API: administration of the LevelStore
// (put, delete, list, describe, get). Validation and building happen in the
// store (MakeLevelSnapshot with the server's limits); this adapter converts
// requests and statuses and logs every level change.
#ifndef COLLIDE_SERVER_LEVEL_SERVICE_IMPL_H_
#define COLLIDE_SERVER_LEVEL_SERVICE_IMPL_H_

#include "collide/v1/level_service.grpc.pb.h"
#include "collide/v1/level_service.pb.h"
#include "grpcpp/grpcpp.h"
#include "server/level_store.h"

namespace collide::server {

class LevelServiceImpl final : public v1::LevelService::CallbackService {
 public:
  // `store` must outlive the service.
  explicit LevelServiceImpl(LevelStore& store) : store_(store) {}

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
  LevelStore& store_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVEL_SERVICE_IMPL_H_
