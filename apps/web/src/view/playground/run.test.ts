import { describe, expect, it } from "vitest";
import {
	conversation,
	describeRunError,
	INITIAL_SESSION,
	retryOf,
	RunControl,
	runReducer,
	type RunAction,
	type RunClock,
} from "./run";

describe("the conversation sent", () => {
	it("sends completed turns only, so failed or stopped ones never make two user turns in a row", () => {
		const turns = [
			{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const },
			{ id: 2, user: "Lost", answer: "", status: "failed" as const },
			{ id: 3, user: "Cut", answer: "Par", status: "stopped" as const },
		];
		expect(conversation(turns, "Next")).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "assistant", content: "Hello!" },
			{ role: "user", content: "Next" },
		]);
		expect(conversation(turns, "  ")).toHaveLength(2);
	});
});

describe("the run state", () => {
	const request = { method: "POST", url: "https://p.example/v1", headers: [] };
	const play = (...actions: RunAction[]) => actions.reduce(runReducer, INITIAL_SESSION);

	it("streams a chat turn into place, then marks it done and stops running", () => {
		const history = [{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const }];
		const state = play(
			{ type: "start", deadline: 1000, chat: { history, turnId: 2, question: "Next?" } },
			{ type: "sent", request },
			{ type: "token", turnId: 2, answer: "Par" },
			{ type: "deadline", deadline: 2000 },
		);
		expect(state.run).toEqual({ phase: "running", deadline: 2000 });
		expect(state.sent).toEqual(request);
		expect(state.turns.map((turn) => [turn.id, turn.answer, turn.status])).toEqual([
			[1, "Hello!", "done"],
			[2, "Par", "streaming"],
		]);
		const done = runReducer(state, { type: "answered", turnId: 2 });
		expect(done.run).toEqual({ phase: "done" });
		expect(done.turns[1]?.status).toBe("done");
		// A deadline after the end changes nothing.
		expect(runReducer(done, { type: "deadline", deadline: 5 })).toBe(done);
	});

	it("a retried turn replaces the turns from it on; a new run clears the last output and sent request", () => {
		const first = play(
			{ type: "start", deadline: 1, chat: { history: [], turnId: 1, question: "A" } },
			{ type: "failed", turnId: 1, error: { kind: "network", message: "down" } },
			{ type: "start", deadline: 1, chat: { history: [], turnId: 2, question: "B" } },
		);
		expect(first.turns.map((turn) => turn.user)).toEqual(["B"]);
		const output = { kind: "text" as const, text: "ok" };
		const answered = play(
			{ type: "start", deadline: 1 },
			{ type: "sent", request },
			{ type: "answered", output },
		);
		expect(answered).toMatchObject({ output, sent: request, run: { phase: "done" } });
		expect(runReducer(answered, { type: "start", deadline: 9 })).toEqual({
			turns: [],
			run: { phase: "running", deadline: 9 },
			sent: undefined,
			output: undefined,
		});
	});

	it("a failure is kept on its turn; Stop reads as stopped, and remove/clear drop the feedback", () => {
		const stopped = play(
			{ type: "start", deadline: 1, chat: { history: [], turnId: 7, question: "Q" } },
			{ type: "failed", turnId: 7, error: { kind: "stopped", message: "Stopped." } },
		);
		expect(stopped.turns[0]).toMatchObject({ status: "stopped", error: { kind: "stopped" } });
		expect(stopped.run).toEqual({ phase: "stopped", error: { kind: "stopped", message: "Stopped." } });
		const failed = play(
			{ type: "start", deadline: 1 },
			{ type: "failed", error: { kind: "other", message: "x" } },
		);
		expect(failed.run).toEqual({ phase: "failed", error: { kind: "other", message: "x" } });
		expect(runReducer(stopped, { type: "remove", turnId: 7 })).toMatchObject({
			turns: [],
			run: { phase: "idle" },
		});
		expect(runReducer(stopped, { type: "clear" }).run).toEqual({ phase: "idle" });
	});

	it("one call at a time: a start while running, and a call's events after it ended, change nothing", () => {
		const running = play({ type: "start", deadline: 5, chat: { history: [], turnId: 1, question: "A" } });
		expect(runReducer(running, { type: "start", deadline: 9 })).toBe(running);
		const done = runReducer(running, { type: "answered", turnId: 1 });
		for (const late of [
			{ type: "token", turnId: 1, answer: "late" },
			{ type: "sent", request },
			{ type: "answered", output: { kind: "text", text: "late" } },
			{ type: "failed", turnId: 1, error: { kind: "network", message: "late" } },
		] satisfies RunAction[]) {
			expect(runReducer(done, late)).toBe(done);
		}
	});

	it("removing a failed turn while another streams keeps the run and its deadline", () => {
		const state = play(
			{ type: "start", deadline: 1, chat: { history: [], turnId: 1, question: "A" } },
			{ type: "failed", turnId: 1, error: { kind: "network", message: "down" } },
		);
		const streaming = runReducer(state, {
			type: "start",
			deadline: 40,
			chat: { history: state.turns, turnId: 2, question: "B" },
		});
		const removed = runReducer(streaming, { type: "remove", turnId: 1 });
		expect(removed.run).toEqual({ phase: "running", deadline: 40 });
		expect(removed.turns.map((turn) => turn.id)).toEqual([2]);
		expect(runReducer(streaming, { type: "clear" }).run).toEqual({ phase: "running", deadline: 40 });
	});
});

describe("retryOf", () => {
	const turns = [
		{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const },
		{ id: 2, user: "Lost", answer: "", status: "failed" as const },
		{ id: 3, user: "Later", answer: "x", status: "done" as const },
		{ id: 4, user: "Cut", answer: "Par", status: "stopped" as const },
	];
	it("asks a failed or stopped turn again in its place, dropping the turns after it", () => {
		expect(retryOf(turns, 2)).toEqual({ history: [turns[0]], question: "Lost" });
		expect(retryOf(turns, 4)).toEqual({ history: turns.slice(0, 3), question: "Cut" });
	});
	it("offers nothing for an answered or unknown turn", () => {
		expect(retryOf(turns, 1)).toBeUndefined();
		expect(retryOf(turns, 99)).toBeUndefined();
	});
});

/** A clock moved by hand: timers fire when `advance` passes them, never on their own. */
function handClock() {
	let now = 1_000;
	const timers = new Map<number, { at: number; callback: () => void }>();
	let ids = 0;
	const clock: RunClock = {
		now: () => now,
		setTimeout: (callback, ms) => {
			timers.set(++ids, { at: now + ms, callback });
			return ids;
		},
		clearTimeout: (handle) => void timers.delete(handle as number),
	};
	const advance = (ms: number) => {
		now += ms;
		for (const [id, timer] of [...timers]) {
			if (timer.at <= now) {
				timers.delete(id);
				timer.callback();
			}
		}
	};
	return { clock, advance, pending: () => timers.size };
}

describe("RunControl (cancellation)", () => {
	it("runs one call at a time; ending it lets the next begin and disarms its timeout", () => {
		const { clock, pending } = handClock();
		const control = new RunControl(60_000, clock);
		const call = control.begin();
		expect(call?.deadline).toBe(61_000);
		expect(control.busy).toBe(true);
		expect(control.begin()).toBeUndefined();
		call?.end();
		expect(pending()).toBe(0);
		expect(control.busy).toBe(false);
		expect(call?.signal.aborted).toBe(false);
		expect(control.begin()).toBeDefined();
	});

	it("Stop aborts the call under way and says so; a Stop with nothing running does nothing", () => {
		const { clock } = handClock();
		const control = new RunControl(60_000, clock);
		control.stop();
		const call = control.begin();
		control.stop();
		expect(call?.signal.aborted).toBe(true);
		expect(call?.reason).toBe("stopped");
	});

	it("gives up after the timeout without an answer; each streamed token pushes it back", () => {
		const { clock, advance } = handClock();
		const control = new RunControl(60_000, clock);
		const call = control.begin();
		advance(59_000);
		expect(call?.extend()).toBe(120_000);
		advance(59_000);
		expect(call?.signal.aborted).toBe(false);
		advance(1_000);
		expect(call?.signal.aborted).toBe(true);
		expect(call?.reason).toBe("timeout");
		// A Stop after the timeout does not rename why it ended.
		control.stop();
		expect(call?.reason).toBe("timeout");
	});

	it("a call that ended is not extended, stopped or timed out any more", () => {
		const { clock, advance, pending } = handClock();
		const control = new RunControl(1_000, clock);
		const first = control.begin();
		first?.end();
		expect(first?.extend()).toBe(2_000);
		expect(pending()).toBe(0);
		const second = control.begin();
		first?.end();
		expect(control.busy).toBe(true);
		advance(5_000);
		expect(first?.signal.aborted).toBe(false);
		expect(second?.reason).toBe("timeout");
	});

	it("leaving the page aborts the call without a reason of its own", () => {
		const control = new RunControl(1_000, handClock().clock);
		const call = control.begin();
		control.dispose();
		expect(call?.signal.aborted).toBe(true);
		expect(call?.reason).toBeUndefined();
	});
});

describe("describeRunError", () => {
	it("says why a run ended: timeout, Stop, the provider's status, the network, or the error itself", () => {
		const timeoutMs = 60_000;
		expect(describeRunError(new Error("aborted"), { reason: "timeout", timeoutMs })).toEqual({
			kind: "timeout",
			message: "No answer within 60 s: the request was cancelled.",
		});
		expect(describeRunError(new Error("aborted"), { reason: "stopped", timeoutMs }).kind).toBe("stopped");
		expect(describeRunError(new Error("Model is loading"), { status: 503, timeoutMs })).toEqual({
			kind: "provider",
			message: "Model is loading",
			status: 503,
		});
		const network = describeRunError(new TypeError("Failed to fetch"), {
			url: "https://p.example:8443/v1",
			timeoutMs,
		});
		expect(network.kind).toBe("network");
		expect(network.message).toMatch(/^Could not reach p\.example:8443: Failed to fetch\. .*CORS/);
		expect(describeRunError("odd", { timeoutMs })).toEqual({ kind: "other", message: "odd" });
	});
});
