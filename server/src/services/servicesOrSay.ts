// The services for a command of the CLI (a scenario's run, `racelab check`): found as
// findServices finds them, or, when none can be had, the reason on stderr.
import { findServices, type Services } from './findServices.js';

/** The services, or null once it has said why they could not be reached (the command then exits 1). */
export async function servicesOrSay(): Promise<Services | null> {
  try {
    return await findServices();
  } catch (error) {
    console.error(`racelab: could not reach the services: ${(error as Error).message}`);
    return null;
  }
}
