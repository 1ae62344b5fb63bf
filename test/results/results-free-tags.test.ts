// Tags inside tests verified by the runners' real XML (issue 49): fixtures/free-tags holds
// vitest (a body, a computed title), pytest (a body, a signature line, a method) and gotestsum
// (a signature line, a t.Run closure) tests tagged inside, and the XML each runner wrote.
import { describe, expect, it } from "vitest";
import { runSpeky } from "../support/process.js";

describe("free tags inside tests", () => {
  // speky:speky-ts#TRESULTS-FREE-TAGS
  it("verify their test plans from the runners' results, a computed title's runs included", () => {
    const run = runSpeky(["check", "fixtures/free-tags/speky.yaml", "--require-verified"]);
    expect(run.stdout).toBe("0 errors, 0 warnings in 6 files\n");
    expect(run.status).toBe(0);
  });
});
