import { createContext, useContext } from "react";
import type { RepoType } from "@modelhub/tasks/repositories";

/**
 * The type of repository the page shows: a dataset page provides "dataset", so the components it shares
 * with model pages (files, history, file views, uploads, edits) address `/api/datasets/…` and
 * `/datasets/…` through `useApiOptions()` and `browseHref`.
 */
export const RepoTypeContext = createContext<RepoType>("model");

export function useRepoType(): RepoType {
	return useContext(RepoTypeContext);
}
