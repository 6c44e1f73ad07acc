import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../test-support/facts.js";
import {
	MODALITIES,
	MODALITY_LABELS,
	PIPELINE_DATA,
	PIPELINE_TYPES,
	PIPELINE_TYPES_SET,
	SUBTASK_TYPES,
	isPipelineType,
	type PipelineData,
} from "./pipelines.js";

interface PipelineFacts {
	MODALITIES: string[];
	MODALITY_LABELS: Record<string, string>;
	pipelines: Array<PipelineData & { id: string }>;
	counts: { pipelineTypes: number; subtaskEntries: number; distinctSubtaskTypes: number };
}

const facts = loadFacts<PipelineFacts>("pipelines.json");

describe("PIPELINE_DATA", () => {
	it("holds every pipeline type in source order", () => {
		expect(PIPELINE_TYPES).toEqual(facts.pipelines.map((p) => p.id));
		expect(PIPELINE_TYPES).toHaveLength(facts.counts.pipelineTypes);
	});

	it("matches the facts field by field, with flags only where the facts set them", () => {
		for (const { id, ...expected } of facts.pipelines) {
			expect(PIPELINE_DATA[id as keyof typeof PIPELINE_DATA], id).toEqual(expected);
		}
	});

	it("lists sub-task types in pipeline order, keeping the one duplicate", () => {
		expect(SUBTASK_TYPES).toHaveLength(facts.counts.subtaskEntries);
		expect(new Set(SUBTASK_TYPES).size).toBe(facts.counts.distinctSubtaskTypes);
		expect(SUBTASK_TYPES.filter((t) => t === "closed-domain-qa")).toHaveLength(2);
	});

	it("has modalities and their labels", () => {
		expect([...MODALITIES]).toEqual(facts.MODALITIES);
		expect(MODALITY_LABELS).toEqual(facts.MODALITY_LABELS);
		for (const data of Object.values(PIPELINE_DATA)) expect(MODALITIES).toContain(data.modality);
	});

	it("narrows strings with isPipelineType and the set", () => {
		expect(isPipelineType("text-generation")).toBe(true);
		expect(isPipelineType("conversational")).toBe(false);
		expect(isPipelineType("Text-Generation")).toBe(false);
		expect(isPipelineType(undefined)).toBe(false);
		expect(isPipelineType(42)).toBe(false);
		expect(PIPELINE_TYPES_SET.has("any-to-any")).toBe(true);
		expect(PIPELINE_TYPES_SET.size).toBe(PIPELINE_TYPES.length);
	});
});
