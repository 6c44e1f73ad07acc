/**
 * What the dataset viewer's test files share: the small limits their hubs run with (so that the hostile
 * files meet them), a GET of a /datasets-server route, with a token or without, and the errors of the
 * /first-rows of several hostile configs.
 */
export const VIEWER_TEST_LIMITS = { memoryMb: 128, timeoutMs: 20_000, cellChars: 1000 } as const;

export interface ViewerAnswer<T> {
	status: number;
	body: T;
	headers: Headers;
}

export async function viewerGet<T>(hubUrl: string, path: string, token?: string): Promise<ViewerAnswer<T>> {
	const response = await fetch(`${hubUrl}/datasets-server${path}`, {
		headers: token ? { authorization: `Bearer ${token}` } : {},
	});
	return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

/** A /first-rows answer that is an error: its status, its X-Error-Code and its message. */
export type FirstRowsError = [status: number, code: string | null, error: string];

/**
 * GET /first-rows of the `train` split of each of `configs` of `dataset` (configs the test expects to fail),
 * one after the other: each answer's status, X-Error-Code and error message, by config.
 */
export async function firstRowsErrors(
	hubUrl: string,
	dataset: string,
	configs: readonly string[],
): Promise<Record<string, FirstRowsError>> {
	const answers: Record<string, FirstRowsError> = {};
	for (const config of configs) {
		const answer = await viewerGet<{ error: string }>(
			hubUrl,
			`/first-rows?dataset=${dataset}&config=${config}&split=train`,
		);
		answers[config] = [answer.status, answer.headers.get("x-error-code"), answer.body.error];
	}
	return answers;
}
