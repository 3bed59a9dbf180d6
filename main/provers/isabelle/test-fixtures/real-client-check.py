"""
Drives the REAL Python clients of Isa-REPL (`IsaREPL.Client`, github.com/xqyww123/Isa-REPL) and of Minilang
(`IsaMini.REPL`, github.com/xqyww123/Isa-Mini) against an Isa-REPL server at ADDRESS (Arbor's test double)
through every message kind Arbor's isabelle backend uses, and prints a JSON report: which kinds were
exchanged and whether the client accepted each answer. `../real-client.test.ts` runs it with PYTHONPATH
pointing at source checkouts of the clients and of their import-time dependency Isabelle_RPC_Host.

Usage: python3 real-client-check.py HOST:PORT

Arbor's test harness, not product code. It calls only the clients' public methods (plus the two private
helpers `IsaMini.REPL` itself uses, `_write` and `_feed_and_unpack`, nowhere else). One patch, reported in
the output: IsaMini v0.6.0 cannot enter Minilang unpatched (see `patch_if_needed`).
"""
import asyncio
import json
import sys
import traceback

report = {"exchanges": [], "patches": [], "failures": []}


def ok(kind, via, detail=None):
    entry = {"kind": kind, "ok": True, "via": via}
    if detail is not None:
        entry["detail"] = detail
    report["exchanges"].append(entry)


def bad(kind, via, error):
    report["exchanges"].append({"kind": kind, "ok": False, "via": via, "error": error})
    report["failures"].append(f"{kind} via {via}: {error}")


import IsaREPL  # noqa: E402
from IsaREPL import Client, REPLFail  # noqa: E402
from IsaMini import REPL as Mini  # noqa: E402

report["versions"] = {"IsaREPL": IsaREPL.__version__, "python": sys.version.split()[0]}



async def unpatched_entry(addr):
    """What the unmodified IsaMini.REPL does on entering (recorded, then worked around below)."""
    try:
        async with Mini(addr, "HOL"):
            return "entered"
    except Exception as e:  # noqa: BLE001 - reported as it is
        return f"{type(e).__name__}: {e}"


def patch_if_needed():
    if not hasattr(Mini, "Client"):
        # IsaMini v0.6.0's REPL.py does `import IsaREPL as REPL` and then defines `class REPL`, which rebinds
        # the name: its methods' `REPL.Client` then looks on the class and fails with AttributeError before
        # any byte is sent. Give the class the attribute it looks up (the real IsaREPL.Client); nothing else.
        Mini.Client = Client
        report["patches"].append("IsaMini.REPL.REPL.Client = IsaREPL.Client (v0.6.0 shadows the module IsaREPL with class REPL)")


def check_tree(tree):
    parsed = Mini.parse_prooftree(tree)
    if parsed is None:
        raise ValueError(f"parse_prooftree could not read {tree!r}")
    return parsed


def check_answer(ans, expect_commands):
    commands, finished = ans
    if len(commands) != expect_commands:
        raise ValueError(f"expected {expect_commands} command answers, got {len(commands)}")
    for items, case, tree in commands:
        Mini.parse_item(items)
        check_tree(tree)
    return commands, finished


async def main(addr):
    report["unpatched_entry"] = await unpatched_entry(addr)
    patch_if_needed()
    theory = 'theory Scratch imports Minilang.Minilang Main begin\nlemma goal: "A ∧ B ⟶ B ∧ A"\n'

    await Client.test_server(addr)
    ok("heartbeat", "IsaREPL.Client.test_server")

    async with Mini(addr, "HOL") as mini:
        # __aenter__: handshake, \x05notrace, \x05load, \x05addlibs, \x05ML, \x05record
        for kind, via in [("handshake", "IsaREPL.Client.__aenter__"), ("\x05notrace", "IsaREPL.Client.set_trace(False)"),
                          ("\x05load", "IsaREPL.Client.load_theory"), ("\x05addlibs", "IsaREPL.Client.add_lib"),
                          ("\x05ML", "IsaREPL.Client.run_ML"), ("\x05record", "IsaREPL.Client.record_state")]:
            ok(kind, via)

        # set_theory_and_goal: \x05rollback (CommandOutput.parse), the theory source, \x05app, the Minilang start
        await mini.set_theory_and_goal(theory)
        for kind, via in [("\x05rollback", "IsaREPL.Client.rollback + CommandOutput.parse"), ("eval-source", "IsaREPL.Client.eval"),
                          ("\x05app", "IsaREPL.Client.run_app"), ("minilang-start", "IsaMini.REPL.__run (version check)")]:
            ok(kind, via)

        commands, finished = check_answer(await mini.print(), 1)
        ok("\\print", "IsaMini.REPL.print", {"tree": commands[0][2], "finished": finished})

        await mini.record("s1")
        ok("\\stamp", "IsaMini.REPL.record")

        commands, _ = check_answer(await mini.eval('HAVE h: "B"'), 1)
        ok("minilang-source", "IsaMini.REPL.eval(src)", {"tree": commands[0][2]})

        commands, _ = check_answer(await mini.eval("END", timeout=5000), 1)
        ok("\\eval", "IsaMini.REPL.eval(src, timeout=…)", {"tree": commands[0][2]})

        commands, _ = check_answer(await mini.eval("RULE impI\nAPPLY (rule conjI)", timeout_cmd=5000), 2)
        ok("\\eval", "IsaMini.REPL.eval(two commands, timeout_cmd=…)", {"trees": [c[2] for c in commands]})

        await mini.rollback("s1")
        commands, _ = check_answer(await mini.print(), 1)
        ok("\\rollback", "IsaMini.REPL.rollback", {"tree": commands[0][2]})

        await mini.set_mode("RELAXED")
        ok("\\END_mode", "IsaMini.REPL.set_mode")

        # Error answers: the clients raise REPLFail with the server's message and the session goes on.
        for src, kind in [("APPLY (tactic)", "minilang-source"), ("CRUSH", "minilang-source")]:
            try:
                await mini.eval(src)
                bad(kind, f"IsaMini.REPL.eval({src!r}) error answer", "no error was raised")
            except REPLFail as e:
                ok(kind, f"IsaMini.REPL.eval({src!r}) error answer", str(e))
        try:
            await mini.conclude()
            bad("\\conclude", "IsaMini.REPL.conclude() before the end", "no error was raised")
        except REPLFail as e:
            ok("\\conclude", "IsaMini.REPL.conclude() error answer", str(e))

        # A whole proof: the finished flag, then \conclude's (theorem, proof).
        commands, finished = check_answer(await mini.eval("RULE impI\nAPPLY (rule conjI)\nNEXT\nEND"), 4)
        if not finished:
            raise ValueError("the proof should be finished")
        ok("minilang-source", "IsaMini.REPL.eval (finishing)", {"tree": commands[-1][2], "finished": finished})
        thm, proof = await mini.conclude()
        ok("\\conclude", "IsaMini.REPL.conclude", {"theorem": thm, "proof": proof})

    ok("\\close", "IsaMini.REPL.close (async with exit)")

    # kill: interrupts a session that is busy (a HAMMER on a goal the double never proves in time). The real
    # server answers no error: the interrupt passes the handlers of Minilang's REPL and of the server to the
    # worker's `finally`, which closes the connection (Isa-REPL library/Server.ML lines 816, 859-863), so the
    # client sees the connection end. A session of its own, since it does not survive.
    killed_session = Mini(addr, "HOL")
    await killed_session.__aenter__()
    try:
        await killed_session.set_theory_and_goal(theory.replace("A ∧ B ⟶ B ∧ A", "slow P"))
        ok("\\close", "IsaMini.REPL.set_theory_and_goal (turns the running Minilang off first)")
        try:
            await killed_session.eval("HAMMER", timeout=300)
            bad("\\eval", "IsaMini.REPL.eval(timeout=300) past its limit", "no error was raised")
        except REPLFail as e:
            ok("\\eval", "IsaMini.REPL.eval(timeout=300) past its limit (error answer)", str(e))
        task = asyncio.create_task(killed_session.eval("HAMMER"))
        killed = False
        while not task.done():
            killed = await Client.kill_client(addr, killed_session.repl.client_id) or killed
            await asyncio.wait([task], timeout=0.05)
        try:
            await task
            bad("kill", "HAMMER after kill", "it was answered; the server should have closed the connection")
        except REPLFail as e:
            bad("kill", "HAMMER after kill", f"an error answer ({e}); the server should have closed the connection")
        except Exception as e:  # noqa: BLE001 - the client's own way of seeing the connection end
            ok("kill", "IsaREPL.Client.kill_client, then the interrupted session's connection closed", {"found": killed, "client saw": type(e).__name__})
    finally:
        try:
            await killed_session.__aexit__(None, None, None)
        except Exception:  # noqa: BLE001 - leaving a closed session may fail; nothing is left to close
            pass


try:
    asyncio.run(main(sys.argv[1]))
except Exception as e:  # the report says what failed; the harness fails the test on it
    report["failures"].append(f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
print(json.dumps(report))
