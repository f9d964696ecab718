import { describe, expect, it } from 'vitest';
import { checkUsage, parseCommandLine } from '../../src/cli/args.js';

const usage =
  (...argv: string[]) =>
  () =>
    checkUsage(parseCommandLine(argv));

describe('checkUsage', () => {
  it('accepts every documented form', () => {
    for (const argv of [
      ['serve'],
      ['migrate'],
      ['backup', 'b.db'],
      ['import', 'dir', '--shop', 'demo'],
      ['shops', 'create', '--handle', 'h', '--name', 'N', '--scopes', 'read_markets'],
      ['shops', 'list'],
      ['shops', 'delete', 'h', '--yes'],
      ['keys', 'demo'],
      ['keys', 'list', 'demo'],
      ['keys', 'revoke', 'demo', 'rb_pub_0123456789abcdef'],
      ['connect', 'demo', '--domain', 'd.example', '--token', 't'],
      ['connect', 'demo', '--reconcile'],
      ['migrate', '--help'],
    ])
      expect(usage(...argv), argv.join(' ')).not.toThrow();
  });

  it("refuses the subcommand after the shop, which would otherwise rotate that shop's keys", () => {
    expect(usage('keys', 'demo', 'list')).toThrow('the subcommand comes first: keys list demo.');
    expect(usage('keys', 'demo', 'revoke', 'rb_pub_0123456789abcdef')).toThrow(
      'keys revoke demo rb_pub_0123456789abcdef',
    );
  });

  it('refuses an argument more than the form takes', () => {
    expect(usage('keys', 'demo', 'other')).toThrow('keys takes 1 argument here; "other" is one too many.');
    expect(usage('keys', 'list', 'demo', 'x')).toThrow('"x" is one too many');
    expect(usage('migrate', 'now')).toThrow('migrate takes no arguments here; "now" is one too many.');
    expect(usage('backup', 'a.db', 'b.db')).toThrow('"b.db" is one too many');
  });

  it('refuses an option the command does not read, instead of ignoring it', () => {
    expect(usage('import', 'dir', '--shop', 'demo', '--handle', 'other')).toThrow('import takes no --handle.');
    expect(usage('serve', '--reconcile')).toThrow('serve takes no --reconcile.');
    expect(usage('keys', 'demo', '--shop', 'demo')).toThrow('keys takes no --shop.');
  });

  it('deletes a shop only when told twice, and keeps each shops subcommand to its own options', () => {
    expect(usage('shops', 'delete', 'demo')).toThrow('shops delete removes shop demo and everything stored for it');
    expect(usage('shops', 'delete', '--yes')).toThrow('shops delete needs a shop handle.');
    expect(usage('shops', 'create', '--handle', 'h', '--name', 'N', '--yes')).toThrow('shops create takes no --yes.');
    expect(usage('shops', 'list', '--name', 'N')).toThrow('shops list takes no --name.');
    expect(usage('shops', 'remove', 'demo')).toThrow('three subcommands: create, list and delete');
    expect(usage('shops', 'delete', 'demo', 'other', '--yes')).toThrow('"other" is one too many');
  });

  it('names what is missing', () => {
    expect(usage('keys')).toThrow('keys needs a shop handle.');
    expect(usage('restore')).toThrow('restore needs a file.');
    expect(usage('frobnicate')).toThrow('unknown command "frobnicate".');
  });
});
