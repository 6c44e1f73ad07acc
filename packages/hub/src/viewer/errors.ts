import { HubError, type ErrorKind } from "../errors.js";

/**
 * The viewer's error answers, in the public dataset viewer's shape: `{ "error": … }` and an
 * `X-Error-Code` of its vocabulary (dataset-viewer's `libapi/exceptions.py` and
 * `libcommon/exceptions.py`).
 */
export type ViewerErrorCode =
	| "MissingRequiredParameter"
	| "InvalidParameter"
	| "ResponseNotFound"
	| "EmptyDatasetError"
	| "DatasetWithTooManyConfigsError"
	| "FeaturesError"
	| "DatasetGenerationError"
	| "TooManyColumnsError"
	| "TooBigContentError"
	| "StreamingRowsError"
	| "RowsPostProcessingError"
	| "SearchFeatureNotAvailableError"
	| "ComputationError"
	| "UnsupportedFormatError"
	| "ResponseNotReady"
	| "NoSupportedFeaturesError";

export function viewerError(
	kind: ErrorKind,
	code: ViewerErrorCode,
	message: string,
	cause?: unknown,
): HubError {
	return new HubError(kind, message, {
		headers: { "x-error-code": code },
		...(cause === undefined ? {} : { cause }),
	});
}

/** The public viewer's words for a dataset that is missing or hidden from the viewer (never which). */
export const DATASET_NOT_FOUND =
	"The dataset does not exist, or is not accessible without authentication (private or gated). Please check the spelling of the dataset name or retry with authentication.";

/** An error the engine met reading a split's files (`StreamingRowsError`, as the public viewer names it). */
export function isEngineReadError(error: unknown): boolean {
	return error instanceof HubError && error.options.headers?.["x-error-code"] === "StreamingRowsError";
}

export function datasetNotFound(): HubError {
	return viewerError("NotFound", "ResponseNotFound", DATASET_NOT_FOUND);
}

/** A config or split the dataset does not have. */
export function notFound(): HubError {
	return viewerError("NotFound", "ResponseNotFound", "Not found.");
}

export function missingParameter(name: string): HubError {
	return viewerError("Unprocessable", "MissingRequiredParameter", `Parameter '${name}' is required`);
}

export function invalidParameter(message: string): HubError {
	return viewerError("Unprocessable", "InvalidParameter", message);
}
