/**
 * Two settings pages in Debian's Chromium against the real hub (issue 24): `/settings/webhooks` (create,
 * see deliveries reach a real receiver, edit, disable, enable, delete) and a dataset's gated access (the
 * owner gates it in the dataset's settings, a reader asks from its page, the owner accepts). axe at 1280
 * and 390 px in both themes on every view. A model's "Rename or transfer" form: a taken name is refused
 * with the hub's message, a free one moves it, the new address is linked, and the old one redirects.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, navigateInApp, signInWithToken } from "./support/session";

const ADMIN_TOKEN = "settings-e2e-admin-token-0123456789";
const DATASET = "alice/gated-data";

let hub: RunningHub;
let browser: Browser;
let receiver: Server;
let receiverUrl = "";
const received: Array<{ path: string; secret: string | undefined; scope: string }> = [];
const tokens: Record<string, string> = {};
const errors: string[] = [];
const pages: Page[] = [];

const api = (method: string, path: string, token: string, body?: unknown) =>
	hubJson(hub.url, method, path, token, body);

/** A new tab signed in with `token` (a token session lives in its tab only). */
async function tab(token: string): Promise<Page> {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(10_000);
	const seen = watchErrors(page);
	pages.push(page);
	page.on("close", () => errors.push(...seen));
	await signInWithToken(page, hub.url, token);
	return page;
}

const go = (page: Page, path: string, heading: string) => navigateInApp(page, path, heading);

/** Waits (polling, bounded) until the receiver holds `count` posts. */
async function receivedAtLeast(count: number): Promise<void> {
	for (let i = 0; i < 200 && received.length < count; i++) await new Promise((r) => setTimeout(r, 50));
	expect(received.length).toBeGreaterThanOrEqual(count);
}

beforeAll(async () => {
	receiver = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event: { scope: string } };
			const secret = request.headers["x-webhook-secret"];
			received.push({
				path: request.url ?? "",
				secret: typeof secret === "string" ? secret : undefined,
				scope: body.event.scope,
			});
			response.writeHead(200).end("ok");
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	[hub, browser] = await Promise.all([
		startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN, MODELHUB_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }),
		launchBrowser(),
	]);
	for (const name of ["alice", "bob"]) {
		tokens[name] = (
			(await api("POST", "/api/admin/users", ADMIN_TOKEN, { name })) as { token: string }
		).token;
	}
	const alice = tokens.alice as string;
	await api("POST", "/api/repos/create", alice, { type: "model", name: "watched" });
	await api("POST", "/api/repos/create", alice, { type: "dataset", name: "gated-data" });
}, 120_000);

afterAll(async () => {
	for (const page of pages) if (!page.isClosed()) await page.close();
	await browser?.close();
	await hub?.stop();
	await new Promise((resolve) => receiver?.close(resolve));
});

describe("settings pages in the browser", () => {
	it("creates a webhook, shows its deliveries, edits, disables, enables and deletes it", async () => {
		const alice = await tab(tokens.alice as string);
		await alice.getByRole("link", { name: "Webhooks" }).click();
		await alice.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
		await alice.getByText("You have no webhooks yet.").waitFor();
		await expectNoAxeViolations(alice, "the empty webhooks page");

		await alice.getByLabel("Payload URL").fill(`${receiverUrl}/first`);
		// The watched list starts with the signed-in user.
		await expect(alice.getByLabel("Name of watched item 1").inputValue()).resolves.toBe("alice");
		await alice.getByLabel("Secret (optional)").fill("s3cret");
		await alice.getByRole("button", { name: "Create webhook" }).click();
		await alice.getByRole("heading", { level: 3, name: `${receiverUrl}/first` }).waitFor();
		const [hook] = (await api("GET", "/api/settings/webhooks", tokens.alice as string)) as Array<{
			id: string;
			watched: unknown;
			domains: string[];
			secret: string;
		}>;
		expect(hook).toMatchObject({
			watched: [{ type: "user", name: "alice" }],
			domains: ["repo", "discussion"],
			secret: "s3cret",
		});

		// A commit to one of alice's models reaches the receiver, and the log shows it.
		const commit = await fetch(`${hub.url}/api/models/alice/watched/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "Add a.txt" } },
				{
					key: "file",
					value: { path: "a.txt", content: Buffer.from("a\n").toString("base64"), encoding: "base64" },
				},
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(commit.status).toBe(200);
		await receivedAtLeast(1);
		expect(received[0]).toEqual({ path: "/first", secret: "s3cret", scope: "repo.content" });
		await alice.getByRole("button", { name: `Deliveries of ${receiverUrl}/first` }).click();
		await alice.getByRole("cell", { name: "delivered" }).waitFor();
		await expectNoAxeViolations(alice, "a webhook with its delivery log");

		await alice.getByRole("button", { name: `Edit ${receiverUrl}/first` }).click();
		await alice.getByRole("heading", { name: "Edit webhook" }).waitFor();
		await alice.getByLabel("Payload URL").fill(`${receiverUrl}/second`);
		await alice.getByLabel(/^Discussions and pull requests/).uncheck();
		await expectNoAxeViolations(alice, "the webhook form while editing");
		await alice.getByRole("button", { name: "Save webhook" }).click();
		await alice.getByRole("heading", { level: 3, name: `${receiverUrl}/second` }).waitFor();
		const edited = (await api("GET", `/api/settings/webhooks/${hook?.id}`, tokens.alice as string)) as {
			webhook: { url: string; domains: string[]; disabled: boolean };
		};
		expect(edited.webhook).toMatchObject({
			url: `${receiverUrl}/second`,
			domains: ["repo"],
			disabled: false,
		});

		await alice.getByRole("button", { name: `Disable ${receiverUrl}/second` }).click();
		await alice.getByRole("button", { name: `Enable ${receiverUrl}/second` }).waitFor();
		await alice.getByText("Disabled", { exact: true }).waitFor();
		const disabled = (await api("GET", `/api/settings/webhooks/${hook?.id}`, tokens.alice as string)) as {
			webhook: { disabled: boolean };
		};
		expect(disabled.webhook.disabled).toBe(true);
		await alice.getByRole("button", { name: `Enable ${receiverUrl}/second` }).click();
		await alice.getByRole("button", { name: `Disable ${receiverUrl}/second` }).waitFor();

		await alice.getByRole("button", { name: `Delete ${receiverUrl}/second` }).click();
		await alice.getByRole("button", { name: `Delete for good ${receiverUrl}/second` }).click();
		await alice.getByText("You have no webhooks yet.").waitFor();
		expect(await api("GET", "/api/settings/webhooks", tokens.alice as string)).toEqual([]);
		expect(errors).toEqual([]);
	});

	it("gates a dataset from its settings; a reader asks from its page and the owner accepts", async () => {
		const alice = await tab(tokens.alice as string);
		await go(alice, `/datasets/${DATASET}?tab=settings`, DATASET.split("/")[1] as string);
		await alice.getByRole("heading", { name: "Gated access" }).waitFor();
		await alice.getByLabel("Access requests").selectOption("manual");
		await alice.getByText("Gated (manual approval).").waitFor();
		expect(
			((await api("GET", `/api/datasets/${DATASET}`, tokens.alice as string)) as { gated: unknown }).gated,
		).toBe("manual");

		const bob = await tab(tokens.bob as string);
		await go(bob, `/datasets/${DATASET}`, DATASET.split("/")[1] as string);
		const ask = bob.getByRole("button", { name: "Agree and send request to access repo" });
		await ask.waitFor();
		await expect(bob.getByRole("heading", { name: /to access this dataset$/ }).isVisible()).resolves.toBe(
			true,
		);
		await expectNoAxeViolations(bob, "a gated dataset's request form");
		await ask.click();
		await bob.getByText("Your request is waiting for the owners' review.").waitFor();

		await go(alice, "/settings/webhooks", "Webhooks");
		await go(alice, `/datasets/${DATASET}?tab=settings`, DATASET.split("/")[1] as string);
		const accept = alice.getByRole("button", { name: "Accept bob" });
		await accept.waitFor();
		await expectNoAxeViolations(alice, "a dataset's request queue");
		await accept.click();
		await alice.getByText("bob's request was accepted.").waitFor();
		const accepted = (await api(
			"GET",
			`/api/datasets/${DATASET}/user-access-request/accepted`,
			tokens.alice as string,
		)) as Array<{ user: { user: string } }>;
		expect(accepted.map((entry) => entry.user.user)).toEqual(["bob"]);
		expect(errors).toEqual([]);
	});

	it("renames a model from its settings; the old address redirects to the new one", async () => {
		await api("POST", "/api/repos/create", tokens.alice as string, { type: "model", name: "to-rename" });
		const alice = await tab(tokens.alice as string);
		await go(alice, "/alice/to-rename?tab=settings", "to-rename");
		await alice.getByRole("heading", { name: "Rename or transfer" }).waitFor();
		await expectNoAxeViolations(alice, "a model's rename form");
		// A name taken: the hub's 409, said where the form is.
		await alice.getByLabel("New name", { exact: true }).fill("watched");
		await alice.getByRole("button", { name: "Move to alice/watched" }).click();
		await alice
			.getByRole("alert")
			.getByText(/alice\/watched already exists/)
			.waitFor();
		await alice.getByLabel("New name", { exact: true }).fill("renamed");
		await alice.getByRole("button", { name: "Move to alice/renamed" }).click();
		await alice.getByRole("status").getByText("Moved. Its address is now").waitFor();
		await expectNoAxeViolations(alice, "a moved model's settings");
		await alice.getByRole("link", { name: "alice/renamed" }).click();
		await alice.getByRole("heading", { level: 1, name: "renamed" }).waitFor();
		// The former address, loaded afresh, lands on the new page.
		await alice.goto(`${hub.url}/alice/to-rename`);
		await alice.waitForURL(`${hub.url}/alice/renamed`);
		await alice.getByRole("heading", { level: 1, name: "renamed" }).waitFor();
		expect(
			((await api("GET", "/api/models/alice/renamed", tokens.alice as string)) as { id: string }).id,
		).toBe("alice/renamed");
		expect(errors).toEqual([]);
	});
});
