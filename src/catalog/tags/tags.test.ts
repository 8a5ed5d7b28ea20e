import { describe, expect, it } from 'vitest';
import { categorizeServer, inferTags, tagKind, TAG_KINDS } from '../index.js';

const tags = (name: string, description = '', paramNames: string[] = [], server = 'x'): string[] =>
  inferTags({ name, description, paramNames }, { id: server });

describe('inferTags', () => {
  it.each([
    ['create_issue', 'Create a new issue in a GitHub repository', [], ['create', 'github']],
    ['read_file', 'Read the contents of a file', ['path'], ['read']],
    ['send_slack_message', 'Send a message to a Slack channel', [], ['send', 'slack']],
    ['run_sql_query', 'Run a SQL query on PostgreSQL', [], ['execute', 'sql', 'postgres']],
    ['list_pods', 'List the pods of a k8s namespace', [], ['list', 'kubernetes']],
    ['deleteUser', 'Removes a user', [], ['delete']],
    ['search_docs', 'Search React and Next.js docs', [], ['search', 'javascript', 'react', 'nextjs']],
    ['lint', 'Lint TypeScript code with ESLint', [], ['typescript']],
    ['run_script', 'Run a Python script in Docker', [], ['execute', 'python', 'docker']],
    ['upload', 'Upload a file to Google Drive', [], ['write', 'google-drive']],
  ])('%s: %s -> %j', (name, description, params, expected) => {
    expect(tags(name, description, params)).toEqual(expected);
  });

  it('takes the function from the first verb of the name, else the description', () => {
    expect(tags('get_latest_posts')).toEqual(['read']);
    expect(tags('drive_file_delete_comment')).toEqual(['delete']);
    expect(tags('weather', 'Retrieves the forecast')).toEqual(['read']);
    expect(tags('weather', 'The forecast')).toEqual([]);
  });

  it('matches camel-case product names and skips common English look-alikes', () => {
    expect(tags('x', 'Open a pull request on GitHub with JavaScript')).toEqual([
      'read',
      'javascript',
      'github',
    ]);
    expect(tags('add_reaction', 'React to a message with an emoji')).toEqual(['create']);
    expect(tags('x', 'Go to the next page and express the result')).toEqual([]);
  });

  it('reads the server id and description', () => {
    expect(inferTags({ name: 'get_status', paramNames: [] }, { id: 'acme/notion-mcp' })).toEqual([
      'read',
      'notion',
    ]);
    expect(inferTags({ name: 'q', paramNames: [] }, { id: 'a', description: 'A MongoDB server' })).toEqual([
      'mongodb',
    ]);
  });

  it('names the kind of every tag it gives', () => {
    expect(TAG_KINDS).toEqual(['function', 'language', 'framework', 'technology']);
    expect(['read', 'python', 'react', 'github'].map(tagKind)).toEqual(TAG_KINDS);
    expect(tagKind('prod')).toBeUndefined();
  });

  it('is what categorizeServer returns', () => {
    const t = { key: 'gh/create_issue', name: 'create_issue', description: 'On GitHub', paramNames: [] };
    expect(categorizeServer({ id: 'gh' }, [t]).get(t.key)?.tags).toEqual(['create', 'github']);
  });
});
