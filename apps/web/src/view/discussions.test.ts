import type { CommentEvent, DiscussionDetails } from "@modelhub/hub/api";
import { describe, expect, it } from "vitest";
import {
	canEditComment,
	canHideComment,
	discussionQueryOf,
	discussionRights,
	discussionSearch,
	eventSentence,
	hasNextPage,
	statusAction,
} from "./discussions";

const author = (name: string) => ({ name, fullname: name, type: "user" as const, avatarUrl: "" });

function details(overrides: Partial<DiscussionDetails>): DiscussionDetails {
	return {
		num: 1,
		title: "A question",
		status: "open",
		isPullRequest: false,
		createdAt: "2026-01-01T00:00:00.000Z",
		author: author("bob"),
		repo: { name: "alice/m", type: "model" },
		pinned: false,
		events: [],
		canWrite: false,
		...overrides,
	};
}

function comment(by: string, hidden = false): CommentEvent {
	return {
		id: "c1",
		type: "comment",
		createdAt: "2026-01-01T00:00:00.000Z",
		author: author(by),
		data: {
			edited: false,
			hidden,
			latest: { raw: "hi", html: "hi", updatedAt: "2026-01-01T00:00:00.000Z", author: author(by) },
			numEdits: 0,
			editors: [by],
			history: [],
			reactions: [],
			isReport: false,
		},
	};
}

describe("the Community list's address", () => {
	it("reads the filters and the page, with defaults for unknown values", () => {
		expect(discussionQueryOf(new URLSearchParams(""))).toEqual({ type: "all", status: "open", page: 0 });
		expect(discussionQueryOf(new URLSearchParams("type=pull_request&status=closed&p=2"))).toEqual({
			type: "pull_request",
			status: "closed",
			page: 2,
		});
		expect(discussionQueryOf(new URLSearchParams("type=x&status=merged&p=-1"))).toEqual({
			type: "all",
			status: "open",
			page: 0,
		});
		expect(discussionQueryOf(new URLSearchParams("p=1.5")).page).toBe(0);
		expect(discussionQueryOf(new URLSearchParams("p=99999999")).page).toBe(0);
	});

	it("writes the filters back, leaving the defaults out", () => {
		expect(discussionSearch({ type: "all", status: "open", page: 0 })).toBe("");
		const query = { type: "discussion", status: "all", page: 3 } as const;
		expect(discussionSearch(query)).toBe("?type=discussion&status=all&p=3");
		expect(discussionQueryOf(new URLSearchParams(discussionSearch(query)))).toEqual(query);
	});

	it("knows when another page follows", () => {
		expect(hasNextPage({ start: 0, count: 50 }, 50)).toBe(false);
		expect(hasNextPage({ start: 0, count: 51 }, 50)).toBe(true);
		expect(hasNextPage({ start: 50, count: 51 }, 1)).toBe(false);
	});
});

describe("what the viewer may do", () => {
	it("lets the signed-in comment, the author or a writer change the status, a writer merge an open pull request", () => {
		expect(discussionRights(details({}), undefined)).toEqual({
			comment: false,
			changeStatus: false,
			merge: false,
		});
		expect(discussionRights(details({}), "carol")).toEqual({
			comment: true,
			changeStatus: false,
			merge: false,
		});
		expect(discussionRights(details({}), "bob")).toEqual({ comment: true, changeStatus: true, merge: false });
		const pr = details({ isPullRequest: true });
		expect(discussionRights(pr, "bob").merge).toBe(false);
		expect(discussionRights({ ...pr, canWrite: true }, "alice")).toEqual({
			comment: true,
			changeStatus: true,
			merge: true,
		});
		expect(discussionRights({ ...pr, canWrite: true, status: "draft" }, "alice").merge).toBe(false);
		expect(discussionRights({ ...pr, canWrite: true, status: "merged" }, "alice")).toEqual({
			comment: true,
			changeStatus: false,
			merge: false,
		});
	});

	it("lets only a comment's author edit it, and never a hidden one", () => {
		expect(canEditComment(comment("bob"), "bob")).toBe(true);
		expect(canEditComment(comment("bob"), "alice")).toBe(false);
		expect(canEditComment(comment("bob"), undefined)).toBe(false);
		expect(canEditComment(comment("bob", true), "bob")).toBe(false);
	});

	it("lets a comment's author, or anyone who may write, hide it once", () => {
		const reader = { canWrite: false };
		const writer = { canWrite: true };
		expect(canHideComment(comment("bob"), reader, "bob")).toBe(true);
		expect(canHideComment(comment("bob"), reader, "carol")).toBe(false);
		expect(canHideComment(comment("bob"), writer, "alice")).toBe(true);
		expect(canHideComment(comment("bob"), writer, undefined)).toBe(false);
		expect(canHideComment(comment("bob", true), writer, "alice")).toBe(false);
		expect(canHideComment(comment("bob", true), reader, "bob")).toBe(false);
	});

	it("offers the status the discussion can move to", () => {
		expect(statusAction({ status: "open", isPullRequest: false })).toEqual({
			status: "closed",
			label: "Close discussion",
		});
		expect(statusAction({ status: "closed", isPullRequest: true })).toEqual({
			status: "open",
			label: "Reopen pull request",
		});
		expect(statusAction({ status: "draft", isPullRequest: true })?.status).toBe("open");
		expect(statusAction({ status: "merged", isPullRequest: true })).toBeUndefined();
	});
});

describe("a thread's events", () => {
	const base = { id: "e", createdAt: "2026-01-01T00:00:00.000Z", author: author("alice") };
	it("says what each event did", () => {
		expect(eventSentence({ ...base, type: "status-change", data: { status: "closed" } }, false)).toBe(
			"closed this discussion",
		);
		expect(eventSentence({ ...base, type: "status-change", data: { status: "merged" } }, true)).toBe(
			"merged this pull request",
		);
		expect(eventSentence({ ...base, type: "title-change", data: { from: "a", to: "b" } }, false)).toBe(
			"changed the title from “a” to “b”",
		);
		expect(
			eventSentence({ ...base, type: "commit", data: { subject: "Fix", oid: "f".repeat(40) } }, true),
		).toBe("added a commit: Fix");
	});
});
