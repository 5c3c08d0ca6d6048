/** Every keyboard shortcut, as the "Keyboard shortcuts" dialog lists them (contract section 9). */
export const SHORTCUTS: Array<{ keys: string[]; what: string; where: string }> = [
  { keys: ['/'], what: 'Focus the Search box', where: 'Everywhere' },
  { keys: ['?'], what: 'Show these shortcuts', where: 'Everywhere' },
  { keys: ['g', 'o'], what: 'Go to Overview', where: 'Everywhere' },
  { keys: ['g', 'c'], what: 'Go to Collections', where: 'Everywhere' },
  { keys: ['g', 'l'], what: 'Go to Lookup', where: 'Everywhere' },
  { keys: ['j'], what: 'Next row (Next collection on its page)', where: 'Tables, collection pages' },
  { keys: ['k'], what: 'Previous row (Previous collection on its page)', where: 'Tables, collection pages' },
  { keys: ['Enter'], what: 'Open the row', where: 'Tables' },
  { keys: ['c'], what: 'Copy the id', where: 'Collection and provider pages' },
  { keys: ['p'], what: 'Pin or unpin', where: 'Collection and provider pages' },
];
