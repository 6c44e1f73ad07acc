import { useMemo, useState } from "react";
import { Link } from "react-router";
import type { ModelDetail } from "../../api/models";
import { getInferenceSnippets, type InferenceSnippet } from "../../inference/adapter";
import { useResource } from "../../hooks/useResource";
import { useSettings } from "../../settings/store";
import { isConversational, toModelData } from "../../view/model";
import {
	clientLabel,
	snippetClients,
	snippetLanguages,
	snippetTitle,
	SNIPPET_LANGUAGE_LABELS,
	type ProviderEntry,
	type SnippetLanguageId,
} from "../../view/providers";
import { Code } from "../code";
import { Notice } from "../Status";
import { Switch } from "../Switch";
import { Tabs } from "../Tabs";
import { ProviderPicker } from "./ProviderPicker";

type SnippetState =
	| { status: "loading" }
	| { status: "ready"; snippets: InferenceSnippet[] }
	| { status: "error"; message: string };

export function ProvidersPanel({
	model,
	providers,
	provider,
	onProviderChange,
}: {
	model: ModelDetail;
	providers: ProviderEntry[];
	provider: string | undefined;
	onProviderChange: (provider: string) => void;
}) {
	const { billTo: settingsBillTo } = useSettings();
	const [language, setLanguage] = useState<SnippetLanguageId>("python");
	const [client, setClient] = useState<string | undefined>(undefined);
	const [streaming, setStreaming] = useState(false);
	const [billTo, setBillTo] = useState(false);
	const entry = providers.find((candidate) => candidate.provider === provider);
	const conversational = isConversational(model);
	const modelData = useMemo(() => toModelData(model), [model]);

	// The snippets of the chosen provider and options; "loading" is derived by useResource (no state reset
	// in an effect). Without a provider there is nothing to generate (the panel says so below).
	const generated = useResource(async () => {
		if (!entry) return [];
		const opts: Record<string, unknown> = {};
		if (streaming) opts.streaming = true;
		if (billTo) opts.billTo = settingsBillTo || "my-org";
		return getInferenceSnippets(
			modelData,
			entry.provider,
			{
				hfModelId: model.id,
				providerId: entry.providerId,
				status: entry.status,
				task: entry.task,
				...(entry.adapter ? { adapter: entry.adapter } : {}),
				...(entry.adapterWeightsPath ? { adapterWeightsPath: entry.adapterWeightsPath } : {}),
			},
			opts,
		);
	}, [entry, model.id, modelData, streaming, billTo, settingsBillTo]);
	const state: SnippetState =
		generated.status === "ready"
			? { status: "ready", snippets: generated.data }
			: generated.status === "error"
				? { status: "error", message: generated.error.message }
				: { status: "loading" };

	if (providers.length === 0) {
		return (
			<section aria-labelledby="providers-title" className="section">
				<h2 id="providers-title">Inference providers</h2>
				<p className="muted">No inference provider serves this model yet.</p>
			</section>
		);
	}

	const snippets = state.status === "ready" ? state.snippets : [];
	const languages = snippetLanguages(snippets);
	const activeLanguage = languages.includes(language) ? language : (languages[0] ?? language);
	const clients = snippetClients(snippets, activeLanguage);
	const activeClient = client && clients.includes(client) ? client : clients[0];
	const snippet = snippets.find((item) => item.language === activeLanguage && item.client === activeClient);

	return (
		<section aria-labelledby="providers-title" className="section providers-panel">
			<h2 id="providers-title">Inference providers</h2>
			<ProviderPicker
				name="snippet-provider"
				legend="Provider"
				providers={providers}
				value={provider}
				onChange={onProviderChange}
			/>
			{entry?.status === "staging" ? (
				<Notice tone="warning">This mapping is in staging: the provider is still testing it.</Notice>
			) : null}
			<div className="switch-row">
				{conversational ? <Switch label="Streaming" checked={streaming} onChange={setStreaming} /> : null}
				<Switch
					label="Bill to an organisation"
					checked={billTo}
					onChange={setBillTo}
					description={settingsBillTo ? `Bills ${settingsBillTo}` : "Set the organisation in Settings"}
				/>
			</div>
			{state.status === "loading" ? <p className="muted">Generating snippets…</p> : null}
			{state.status === "error" ? (
				<Notice tone="warning">Snippets are unavailable: {state.message}</Notice>
			) : null}
			{state.status === "ready" && snippets.length === 0 ? (
				<p className="muted">There is no snippet for this task and provider.</p>
			) : null}
			{languages.length > 0 ? (
				<Tabs
					label="Language"
					className="language-tabs"
					selected={activeLanguage}
					onSelect={(id) => setLanguage(id as SnippetLanguageId)}
					items={languages.map((id) => ({
						id,
						label: SNIPPET_LANGUAGE_LABELS[id],
						content: (
							<Tabs
								label="Client"
								className="client-tabs"
								selected={activeClient}
								onSelect={setClient}
								items={clients.map((name) => ({
									id: name,
									label: clientLabel(name),
									content: snippet ? (
										<Code code={snippet.content} language={id} title={snippetTitle(id, name)} />
									) : null,
								}))}
							/>
						),
					}))}
				/>
			) : null}
			<p className="muted small">
				Snippets use a placeholder token. Put yours in <Link to="/settings">Settings</Link> to run the model
				in the playground.
			</p>
		</section>
	);
}
