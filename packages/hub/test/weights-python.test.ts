// The weights readers against files the real libraries write (safetensors + torch, huggingface_hub's
// sharded save, transformers' sharded save_pretrained, gguf-py's GGUFWriter), compared with what those libraries read back themselves
// (test/python/make_weights.py).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../../../test-support/python-env.js";
import { readGgufInfo } from "../src/analysis/gguf.js";
import { readSafetensorsInfo } from "../src/analysis/safetensors.js";
import { packageRoot } from "../src/paths.js";
import { diskReader } from "./support/weights-files.js";

interface WrittenFiles {
	files: Array<{ path: string; size: number }>;
}

interface SafetensorsCase extends WrittenFiles {
	safe_open: Record<string, number>;
	scalars: Record<string, number>;
	huggingface_hub: { sharded: boolean; parameter_count: Record<string, number> };
}

interface GgufCase extends WrittenFiles {
	gguf_py: Record<string, unknown> & { byte_order: string };
}

const workDir = mkdtempSync(join(tmpdir(), "modelhub-weights-python-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs one group of make_weights.py in its own folder; its JSON answer. */
function makeWeights<T>(group: string): Promise<Record<string, T>> {
	const folder = join(workDir, group);
	const script = join(packageRoot(), "test", "python", "make_weights.py");
	return new Promise((resolve, reject) => {
		const child = spawn(pythonEnv().python, [script, group], {
			env: { PATH: process.env.PATH ?? "", HOME: workDir },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			if (code !== 0)
				reject(new Error(`make_weights.py ${group} exited with ${code}:\n${stderr.slice(-4000)}`));
			else resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as Record<string, T>);
		});
		rmSync(folder, { recursive: true, force: true });
		child.stdin.end(JSON.stringify({ work_dir: folder }));
	}).then((answer) => answer as Record<string, T>);
}

/** Per dtype, the figures less the 0-dimension tensors (which the public hub does not count), zeros dropped. */
function withoutScalars(
	counts: Record<string, number>,
	scalars: Record<string, number>,
): Record<string, number> {
	const out: Record<string, number> = {};
	for (const [dtype, count] of Object.entries(counts)) {
		const left = count - (scalars[dtype] ?? 0);
		if (left > 0 || scalars[dtype] === undefined) out[dtype] = left;
	}
	return out;
}

describe("safetensors written by safetensors.torch, huggingface_hub and transformers", () => {
	it("gives the parameter counts safe_open and get_local_safetensors_metadata report", async () => {
		const cases = await makeWeights<SafetensorsCase>("safetensors");
		for (const [name, written] of Object.entries(cases)) {
			const reader = diskReader(join(workDir, "safetensors", name));
			const result = await readSafetensorsInfo(written.files, reader.read);
			const expected = withoutScalars(written.safe_open, written.scalars);
			expect(result.info?.parameters, name).toEqual(expected);
			expect(result.info?.parameters, name).toEqual(
				withoutScalars(written.huggingface_hub.parameter_count, written.scalars),
			);
			expect(result.info?.total, name).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
			expect(result.info?.sharded, name).toBe(written.huggingface_hub.sharded);
			expect(result.bytesRead, name).toBe(reader.bytes());
		}
		// The sharded saves really are sharded, and every shard's header was read.
		for (const folder of ["sharded", "transformers"]) {
			const written = cases[folder] as SafetensorsCase;
			const shards = written.files.filter((file) => file.path.endsWith(".safetensors"));
			expect(shards.length, folder).toBeGreaterThanOrEqual(3);
			const reader = diskReader(join(workDir, "safetensors", folder));
			const result = await readSafetensorsInfo(written.files, reader.read);
			for (const shard of shards)
				expect(
					reader.calls.some(([path]) => path === shard.path),
					shard.path,
				).toBe(true);
			expect(result.info?.sharded, folder).toBe(true);
		}
	}, 180_000);
});

describe("GGUF written by gguf-py", () => {
	it("gives the facts GGUFReader reads: little- and big-endian files and a split model", async () => {
		const cases = await makeWeights<GgufCase>("gguf");
		expect(cases["big"]?.gguf_py.byte_order).not.toBe(cases["little"]?.gguf_py.byte_order);
		expect(cases["split"]?.files.length).toBeGreaterThanOrEqual(2);
		for (const [name, written] of Object.entries(cases)) {
			const reader = diskReader(join(workDir, "gguf", name));
			const result = await readGgufInfo(written.files, reader.read);
			const { byte_order: _order, ...facts } = written.gguf_py;
			expect(result.info, name).toEqual(facts);
			expect(result.bytesRead, name).toBe(reader.bytes());
		}
	}, 180_000);
});
