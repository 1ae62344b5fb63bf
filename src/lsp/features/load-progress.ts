// The first load's progress, shown by the editor as work-done progress: created with
// window/workDoneProgress/create when the client says it supports it (capabilities.window.
// workDoneProgress), then `$/progress` begin, reports (the scan's files, at most one per
// percent), end. A client without the capability gets none (it still gets $/speky/status).
import {
  type Connection,
  WorkDoneProgress,
  type WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from "vscode-languageserver";
import type { ScanProgress } from "../../live/state.js";
import type { Model } from "../../model/model.js";
import { plural } from "../../quote.js";

/** One token for the one first load: the messages are the same at every run. */
const LOAD_PROGRESS_TOKEN = "speky/load";

/** "5 requirements, 2 tests" */
const specCounts = (model: Model) => `${plural(model.requirementIds.length, "requirement")}, ${plural(model.testIds.length, "test")}`;

// speky:speky-ts#LSP-PROGRESS
export class LoadProgress {
  /** Resolves true once the client has created the token; false when it can't or won't. */
  private sent: Promise<boolean>;
  private ended = false;
  private percentage = -1;
  private followed: { scan: ScanProgress; listener: () => void } | null = null;

  constructor(
    private readonly connection: Connection,
    supported: boolean,
  ) {
    this.sent = supported
      ? connection.sendRequest(WorkDoneProgressCreateRequest.type, { token: LOAD_PROGRESS_TOKEN }).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
    this.send({ kind: "begin", title: "speky", message: "loading the specification", percentage: 0, cancellable: false });
  }

  private send(value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
    if (this.ended) return;
    if (value.kind === "end") this.ended = true;
    this.sent = this.sent.then(async (created) => {
      if (created) await this.connection.sendProgress(WorkDoneProgress.type, LOAD_PROGRESS_TOKEN, value).catch(() => undefined);
      return created;
    });
  }

  /** The specs are served; the scan of the code sources, if running, is followed file by file. */
  specsLoaded(model: Model, scan: ScanProgress | null): void {
    if (!scan) {
      this.end(`${specCounts(model)}, ${plural(model.codeReferences.length, "code reference")}`);
      return;
    }
    if (this.followed) return;
    const listener = () => this.scanned(scan);
    this.followed = { scan, listener };
    scan.on("progress", listener);
    this.send({ kind: "report", message: `${specCounts(model)}; scanning the code`, percentage: 0 });
  }

  private scanned(scan: ScanProgress): void {
    if (scan.total === null || scan.total === 0) return;
    const percentage = Math.min(100, Math.floor((100 * scan.done) / scan.total));
    if (percentage <= this.percentage) return;
    this.percentage = percentage;
    this.send({ kind: "report", message: `scanning the code: ${scan.done} of ${plural(scan.total, "file")}`, percentage });
  }

  end(message: string): void {
    if (this.followed) this.followed.scan.off("progress", this.followed.listener);
    this.followed = null;
    this.send({ kind: "end", message });
  }
}
