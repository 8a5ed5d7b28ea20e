// `format: "typescript"` on search_tools, browse_tools and describe_tool (issue 43 §4): the tools
// found, browsed or named, as the TypeScript `call` overloads a run_code script calls. The answer
// is that source as plain text (JSON would escape every quote and newline of it).
import { tsString, type CallerContext, type Gateway } from '../gateway/index.js';
import type { Args } from './args.js';
import type { Result } from './tool-call.js';

/** The signatures answer of `name`, or undefined when it was not asked for TypeScript. */
export async function signaturesResult(
  gateway: Gateway,
  caller: CallerContext,
  name: string,
  args: Args,
): Promise<Result | undefined> {
  if (args.format() !== 'typescript') return undefined;
  const maxTokens = args.maxTokens();
  if (name === 'describe_tool')
    return text((await gateway.toolSignatures(caller, [args.string('key', true)], maxTokens)).text);
  if (name === 'search_tools') {
    const server = args.string('server');
    const limit = args.limit(50);
    const found = await gateway.searchToolsAsync(caller, args.query(), {
      ...(server === undefined ? {} : { server }),
      ...(limit === undefined ? {} : { limit }),
    });
    const keys = found.map((r) => r.key);
    const head = `// ${keys.length} tools found, best first`;
    return text(head + '\n\n' + (await gateway.toolSignatures(caller, keys, maxTokens)).text);
  }
  if (name !== 'browse_tools') return undefined;
  const category = args.string('category');
  const server = args.string('server');
  const cursor = args.string('cursor');
  const answer = await gateway.browseTools(caller, {
    ...(category === undefined ? {} : { category }),
    ...(server === undefined ? {} : { server }),
    ...(cursor === undefined ? {} : { cursor }),
  });
  const keys = answer.kind === 'menu' ? answer.hot.map((t) => t.key) : answer.tools.map((t) => t.key);
  const head =
    answer.kind === 'menu'
      ? `// the hot tools; browse_tools without format gives the categories and servers`
      : `// tools ${answer.offset + 1}-${answer.offset + keys.length} of ${answer.total}` +
        (answer.nextCursor === undefined ? '' : `; next page: cursor ${tsString(answer.nextCursor)}`);
  return text(head + '\n\n' + (await gateway.toolSignatures(caller, keys, maxTokens)).text);
}

function text(value: string): Result {
  return { content: [{ type: 'text', text: value }] };
}
