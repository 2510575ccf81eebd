export {
  eventProjectRoot,
  type HostEvent,
  type HostOutcome,
  type LifecycleHost,
  type LifecycleHostOptions,
  openLifecycleHost,
  type ProjectLifetime,
} from './lifecycle-host';
