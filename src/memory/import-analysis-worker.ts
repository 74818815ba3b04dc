/**
 * The worker thread of a large import (import-analysis.ts): analyses messages and builds their
 * search segment, answering each request in the order it came (AnalysisHere keeps that order).
 */
import { collectGarbage } from "../runtime/index.ts";
import { AnalysisHere, transferables, WORKER_READY, type AnalysisReply, type AnalysisRequest } from "./import-analysis.ts";

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<AnalysisRequest>) => void) | null;
  postMessage(message: AnalysisReply, transfer: ArrayBuffer[]): void;
};
/** Made with the limits of the first request: the thread serves one import. */
let analysis: AnalysisHere | undefined;

async function answer(request: AnalysisRequest): Promise<void> {
  try {
    analysis ??= new AnalysisHere(request.limits);
    const value = request.op === "add" ? await analysis.add(request.inputs) : await analysis.seal();
    scope.postMessage({ id: request.id, value }, transferables(value));
    // This thread's heap is its own: the import's collections on the other thread never reach it.
    collectGarbage(request.op === "seal" || (Array.isArray(value) && value.length > 0));
  } catch (error) {
    scope.postMessage({ id: request.id, error: (error as Error).message ?? String(error) }, []);
  }
}

scope.onmessage = (event) => void answer(event.data);
scope.postMessage({ id: WORKER_READY }, []);
