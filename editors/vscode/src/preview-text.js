// What the "Rye preview" panel shows for a `rye.preview` answer (no vscode import, so tests load it).

/** Whether a file path (or a URI's path) is a markdown item under `.ai/`: the server previews directives among them. */
function isDirective(path) {
  return /(^|[\\/])\.ai[\\/].*\.md$/.test(path);
}

/** The preview as text: the system message and each message under its role, or why there is none. */
function formatPreview(result) {
  if (result?.status === "success" && result.system !== undefined) {
    return [`── system ──`, result.system, ...(result.messages ?? []).flatMap((m) => [`── ${m.role} ──`, m.content])].join("\n");
  }
  if (result?.status === "success") return result.prompt ?? "";
  if (result?.status === "not_compiled") {
    const lines = (result.diagnostics ?? []).map((d) => `${d.code ?? ""} ${d.message ?? ""}`.trim());
    return [`${result.id} does not compile yet:`, ...lines].join("\n");
  }
  return JSON.stringify(result, null, 2);
}

module.exports = { isDirective, formatPreview };
