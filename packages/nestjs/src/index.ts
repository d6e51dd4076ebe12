export {
  RINGHOOK_RECEIVER,
  RinghookModule,
  type RinghookModuleAsyncOptions,
  type RinghookRouteOptions,
  ringhook,
} from './ringhook-module.js'
