"""Drives the real PyPantograph client (0.3.15) against Arbor's Pantograph TEST DOUBLE.

Run by pantograph-double.test.ts with PYTHONPATH set to a copy of PyPantograph's `pantograph` package whose
`pantograph-repl` starts the double. Prints one JSON line: the message kinds exchanged without error.
"""
import json
import os

from pantograph.expr import Site, TacticHave
from pantograph.message import ServerError, TacticFailure
from pantograph.server import Server, get_version

kinds = []


def expect_failure(exc, call):
    try:
        call()
    except exc as e:
        return e
    raise AssertionError(f"expected {exc.__name__}")


assert get_version() == os.environ["PANTOGRAPH_DOUBLE_VERSION"]
kinds.append("--version")
server = Server(imports=["Init"], options={"automaticMode": True, "timeout": 2000})
kinds.append("ready. and options.set")
s0 = server.goal_start("∀ (p q : Prop), p → q → p ∧ q")
kinds.append("goal.start")
s1 = server.goal_tactic(s0, "intro p q hp hq")
assert [v.name for v in s1.goals[0].variables] == ["p", "q", "hp", "hq"] and s1.goals[0].target == "p ∧ q"
kinds.append("goal.tactic (goals, vars, fragment)")
s2 = server.goal_tactic(s1, TacticHave(branch="1 + 1 = 2", binder_name="h"), site=Site(goal_id=0))
assert [g.target for g in s2.goals] == ["1 + 1 = 2", "p ∧ q"]
kinds.append("goal.tactic have with goalId")
e = expect_failure(TacticFailure, lambda: server.goal_tactic(s1, "frobnicate"))
assert "parseError" in e.args[0]
kinds.append("goal.tactic parseError")
e = expect_failure(TacticFailure, lambda: server.goal_tactic(s1, "exact hp"))
assert "type mismatch" in str(e.args[0][0])
kinds.append("goal.tactic failure (Lean messages)")
e = expect_failure(TacticFailure, lambda: server.goal_tactic(s1, "sorry"))
assert e.args[0] == "Tactic generated sorry"
kinds.append("goal.tactic hasSorry, goal.delete")
e = expect_failure(TacticFailure, lambda: server.goal_tactic(s1, "exact unsafeCast hp"))
assert e.args[0] == "Tactic generated unsafe"
kinds.append("goal.tactic hasUnsafe, goal.delete")
s3 = server.goal_tactic(s1, "constructor")
s4 = server.goal_tactic(s3, "assumption", site=Site(goal_id=1, auto_resume=True))
kinds.append("goal.tactic goalId and autoResume")
s5 = server.goal_tactic(s4, "exact?")
assert s5.is_solved and "Try this: exact hp" in str(s5.messages[0])
kinds.append("goal.tactic information message")
assert server.goal_root(s5) is not None
kinds.append("goal.print rootExpr")
e = expect_failure(ServerError, lambda: server.goal_tactic(s1, "sleep 5000"))
assert e.args[0] == {"error": "internal", "desc": "interrupt"}
kinds.append("interrupt by the timeout option")
big = server.goal_start("100000 + 1 = 100001")
e = expect_failure(ServerError, lambda: server.goal_tactic(big, "decide"))
assert e.args[0]["error"] == "core" and e.args[0]["desc"].startswith("maximum recursion depth")
kinds.append("core error (runtime limit)")
del s0, s2
server.gc()
kinds.append("goal.delete (gc)")
assert server.run("stat", {})["nGoals"] >= 1
kinds.append("stat")
e = expect_failure(ServerError, lambda: server.goal_start("(1 + "))
assert e.args[0]["error"] == "parsing"
kinds.append("goal.start parsing error")
print(json.dumps({"kinds": kinds}))
