// A scenario's explanation reads as its text is written: fence-check lists its four
// orderings and sets out what each check does with them in a table, read by role.
import { expect, test } from '@playwright/test';
import { openPlayground } from './racelab.js';

test('an explanation shows its list and its table', async ({ page }) => {
  await openPlayground(page, '/?scenario=fence-check');
  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation.getByRole('list').getByRole('listitem')).toHaveCount(4);
  await expect(explanation.getByRole('listitem').first()).toContainText("Stale write after the new holder's");
  const table = explanation.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['check', '1 after', '2 before', '3 between', '4 late registration']);
  const guard = table.getByRole('row', { name: /^database guard/ });
  await expect(guard.getByRole('cell')).toHaveText(['refused', 'taken, then replaced', 'refused', 'refused']);
  // No mark of the text's own syntax is left on the page.
  await expect(explanation).not.toContainText('|---');
  await expect(explanation).not.toContainText('*let through*');
});
