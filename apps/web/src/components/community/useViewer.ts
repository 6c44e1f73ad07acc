import { useHubSession } from "../../account/session";
import { useApiOptions } from "../../hooks/useApiOptions";
import type { Viewer } from "../../view/discussions";

/**
 * Who may take part: the signed-in account's name, or undefined when signed out or signed in with a
 * read token (the hub takes comments only from a write-scope token or a browser session).
 */
export function useViewer(): Viewer {
	const api = useApiOptions();
	const account = useHubSession(api.baseUrl)?.account;
	return account && account.tokenRole !== "read" ? account.name : undefined;
}
