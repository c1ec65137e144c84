#include "server/rpc/call_budget.h"

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

using ::testing::HasSubstr;

class CountingWaiter : public BudgetWaiter {
 public:
  void OnRoom() override { ++wakes; }
  int wakes = 0;
};

CallLimits SmallLimits() {
  return {.max_streams_per_connection = 2,
          .max_streams = 3,
          .max_queued_bytes_per_connection = 100,
          .max_queued_bytes = 150};
}

TEST(CallBudgetTest, ACallPastThePerConnectionLimitIsRefusedNamingTheFlag) {
  CallBudget budget(SmallLimits());
  auto first = budget.Admit("ipv4:127.0.0.1:1000");
  auto second = budget.Admit("ipv4:127.0.0.1:1000");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  auto third = budget.Admit("ipv4:127.0.0.1:1000");
  EXPECT_EQ(third.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(third.status().message(),
              HasSubstr("--max_streams_per_connection=2"));
  // Another connection still gets one.
  EXPECT_TRUE(budget.Admit("ipv4:127.0.0.1:2000").ok());
}

TEST(CallBudgetTest, ACallPastTheServerLimitIsRefusedNamingTheFlag) {
  CallBudget budget(SmallLimits());
  auto a = budget.Admit("a");
  auto b = budget.Admit("b");
  auto c = budget.Admit("c");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  auto d = budget.Admit("d");
  EXPECT_EQ(d.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(d.status().message(), HasSubstr("--max_streams=3"));
  // An ended call frees its slot.
  c->reset();
  EXPECT_TRUE(budget.Admit("d").ok());
}

TEST(CallBudgetTest, SpentConnectionBudgetNamesItsFlagAndWakesOnRelease) {
  CallBudget budget(SmallLimits());
  auto ticket = *budget.Admit("a");
  ticket->Charge(100);
  const absl::Status room = ticket->CheckRoom();
  EXPECT_EQ(room.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(room.message(),
              HasSubstr("--max_queued_bytes_per_connection=100"));
  auto waiter = std::make_shared<CountingWaiter>();
  ticket->WaitForRoom(waiter);
  EXPECT_EQ(waiter->wakes, 0);
  ticket->Charge(-1);
  EXPECT_EQ(waiter->wakes, 1);
  EXPECT_TRUE(ticket->HasRoom());
  EXPECT_EQ(ticket->peak_charged(), 100);
  EXPECT_EQ(budget.queued_bytes(), 99);
}

TEST(CallBudgetTest, SpentServerBudgetHoldsOtherConnectionsUntilReleased) {
  CallBudget budget(SmallLimits());
  auto heavy = *budget.Admit("a");
  auto other = *budget.Admit("b");
  heavy->Charge(90);
  other->Charge(60);  // 150: the server's budget
  EXPECT_THAT(heavy->CheckRoom().message(), HasSubstr("--max_queued_bytes="));
  auto waiter = std::make_shared<CountingWaiter>();
  other->WaitForRoom(waiter);
  heavy.reset();  // gives its 90 bytes back
  EXPECT_EQ(waiter->wakes, 1);
  EXPECT_TRUE(other->HasRoom());
  EXPECT_EQ(budget.queued_bytes(), 60);
}

TEST(CallBudgetTest, AWaiterGoneBeforeTheWakeUpIsSkipped) {
  CallBudget budget(SmallLimits());
  auto ticket = *budget.Admit("a");
  ticket->Charge(100);
  auto waiter = std::make_shared<CountingWaiter>();
  ticket->WaitForRoom(waiter);
  waiter.reset();
  ticket->Charge(-100);  // must not touch the waiter
  EXPECT_EQ(budget.queued_bytes(), 0);
}

TEST(CallBudgetTest, AReservationIsWholeOrPartOnlyForACallerWithNothingElse) {
  CallBudget budget(SmallLimits());
  auto ticket = *budget.Admit("a");
  ticket->Charge(70);  // 30 left on the connection
  // All of 40 does not fit: nothing charged, the budget not spent.
  CallBudget::Ticket::Reservation whole = ticket->Reserve(40, false);
  EXPECT_EQ(whole.bytes, 0);
  EXPECT_FALSE(whole.spent);
  EXPECT_EQ(budget.queued_bytes(), 70);
  // A caller with nothing else in flight takes what is left.
  CallBudget::Ticket::Reservation part = ticket->Reserve(40, true);
  EXPECT_EQ(part.bytes, 30);
  EXPECT_EQ(budget.queued_bytes(), 100);
  // Now spent, for either kind.
  EXPECT_TRUE(ticket->Reserve(1, true).spent);
  EXPECT_EQ(ticket->Reserve(1, true).bytes, 0);
  EXPECT_EQ(budget.queued_bytes(), 100);
}

TEST(CallBudgetTest,
     AnAnswerGrowingPastItsAdvanceIsStoppedOnceTheBudgetIsSpent) {
  CallBudget budget(SmallLimits());
  auto ticket = *budget.Admit("a");
  {
    AnswerCharge charge(*ticket, 20);
    ticket->Charge(20);  // the advance, charged by the caller
    // Within the advance (2 x 10 bytes of arena): nothing more charged.
    EXPECT_TRUE(charge.Update(10).ok());
    EXPECT_EQ(budget.queued_bytes(), 20);
    // Past it: charged twice the arena, and asked for room.
    EXPECT_TRUE(charge.Update(30).ok());
    EXPECT_EQ(budget.queued_bytes(), 60);
    const absl::Status cut = charge.Update(55);  // 110 > 100
    EXPECT_EQ(cut.code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(cut.message(),
                HasSubstr("--max_queued_bytes_per_connection=100"));
    EXPECT_EQ(charge.charged(), 110);
    // Finishing charges what the answer holds and asks nothing.
    charge.Finish(60);
    EXPECT_EQ(charge.charged(), 120);
    EXPECT_EQ(charge.needed(), 120);
    EXPECT_EQ(budget.queued_bytes(), 120);
  }
}

}  // namespace
}  // namespace collide::server
