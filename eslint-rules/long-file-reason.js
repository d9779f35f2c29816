// local/long-file-reason: a file over MAX_LINES lines says why on its first line, as `// Long: <reason>` (a line
// comment starting "Long:" and a reason after it). A file that is several things is split instead.
export const MAX_LINES = 250;
const REASON = /^\/\/ Long: \S/;

export default {
  meta: {
    type: 'suggestion',
    docs: { description: `A file over ${MAX_LINES} lines gives the reason on its first line: // Long: <reason>` },
    schema: [],
    messages: {
      noReason:
        'This file has {{lines}} lines (over ' +
        MAX_LINES +
        '). Split it, or make its first line "// Long: <the reason it is one file>".',
    },
  },
  create(context) {
    return {
      Program(node) {
        const lines = context.sourceCode.lines;
        // A file ending in a newline has an empty last "line"; wc -l does not count it.
        const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
        if (count <= MAX_LINES || REASON.test(lines[0] ?? '')) return;
        context.report({ node, loc: { line: 1, column: 0 }, messageId: 'noReason', data: { lines: String(count) } });
      },
    };
  },
};
