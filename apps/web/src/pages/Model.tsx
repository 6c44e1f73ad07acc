import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import { listLibraries } from "../api/catalogue";
import { ApiError } from "../api/http";
import { getModel, takePrefetchedModel, type ModelDetail } from "../api/models";
import { CopyButton } from "../components/CopyButton";
import { Dialog } from "../components/Dialog";
import { ProvidersPanel } from "../components/model/ProvidersPanel";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { displayTags, modelFacts, splitModelId } from "../view/model";
import { providerEntries } from "../view/providers";
import NotFound from "./NotFound";

// The library snippet generators and the playground load on demand, outside the model page's first load.
const UseModelSnippets = lazy(() => import("../components/model/UseModelSnippets"));
const Playground = lazy(() => import("../components/model/Playground"));

export default function ModelPage() {
	const { namespace, name } = useParams();
	const id = namespace ? `${namespace}/${name ?? ""}` : (name ?? "");
	const api = useApiOptions();
	const model = useResource(
		(signal) => takePrefetchedModel(id, api.baseUrl) ?? getModel(id, { ...api, signal }),
		[id, api.baseUrl],
	);
	useDocumentTitle(model.status === "error" ? "Model not found" : id);

	if (model.status === "loading") return <Loading label="Loading model" />;
	if (model.status === "error") {
		const error = model.error;
		if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
			return <NotFound title="Model not found" message={`The hub has no model called “${id}”.`} />;
		}
		return <ErrorNotice title="Could not load the model">{error.message}</ErrorNotice>;
	}
	return <ModelView model={model.data} />;
}

/** The display name of a library, from the hub's library list (the key until it arrives). */
function useLibraryLabel(key: string | undefined): string | undefined {
	const api = useApiOptions();
	const [label, setLabel] = useState<string | undefined>(undefined);
	useEffect(() => {
		if (!key) return;
		const controller = new AbortController();
		listLibraries({ ...api, signal: controller.signal }).then(
			(libraries) => setLabel(libraries.find((library) => library.key === key)?.prettyLabel),
			() => undefined,
		);
		return () => controller.abort();
	}, [key, api]);
	return label;
}

function ModelView({ model }: { model: ModelDetail }) {
	const { namespace, name } = splitModelId(model.id);
	const providers = useMemo(() => providerEntries(model.inferenceProviderMapping), [model]);
	const [provider, setProvider] = useState(providers[0]?.provider);
	const libraryLabel = useLibraryLabel(model.library_name);
	const facts = modelFacts(model, () => libraryLabel);
	const tags = displayTags(model.tags);

	return (
		<article className="model-page">
			<header className="page-header model-header">
				<h1 className="model-title">
					{namespace ? (
						<>
							<Link to={`/models?author=${encodeURIComponent(namespace)}`} className="model-namespace">
								{namespace}
							</Link>
							<span aria-hidden="true" className="model-slash">
								/
							</span>
						</>
					) : null}
					<span>{name}</span>
				</h1>
				<div className="header-actions">
					<CopyButton text={model.id} label="Copy model id" />
					{model.library_name ? (
						<Dialog.Root>
							<Dialog.Trigger className="btn btn-primary">Use this model</Dialog.Trigger>
							<Dialog.Content className="use-dialog">
								<div className="dialog-header">
									<Dialog.Title>Use {model.id}</Dialog.Title>
									<Dialog.Close className="btn btn-icon" aria-label="Close">
										<span aria-hidden="true">✕</span>
									</Dialog.Close>
								</div>
								<Suspense fallback={<Loading label="Loading snippets" />}>
									<UseModelSnippets model={model} />
								</Suspense>
							</Dialog.Content>
						</Dialog.Root>
					) : null}
				</div>
			</header>

			<dl className="facts">
				{facts.map((fact) => (
					<div key={fact.term}>
						<dt>{fact.term}</dt>
						<dd>{fact.href ? <Link to={fact.href}>{fact.value}</Link> : fact.value}</dd>
					</div>
				))}
			</dl>

			{tags.length > 0 ? (
				<section aria-labelledby="tags-title" className="section">
					<h2 id="tags-title">Tags</h2>
					<ul className="tag-list">
						{tags.map((tag) => (
							<li key={tag.tag} className={`tag${tag.kind ? ` tag-${tag.kind}` : ""}`}>
								{tag.kind ? <span className="tag-kind">{tag.kind}: </span> : null}
								{tag.label}
							</li>
						))}
					</ul>
				</section>
			) : null}

			<ProvidersPanel
				model={model}
				providers={providers}
				provider={provider}
				onProviderChange={setProvider}
			/>

			<section aria-labelledby="playground-title" className="section">
				<h2 id="playground-title">Playground</h2>
				<Suspense fallback={<Loading label="Loading the playground" />}>
					<Playground
						model={model}
						providers={providers}
						provider={provider}
						onProviderChange={setProvider}
					/>
				</Suspense>
			</section>
		</article>
	);
}
