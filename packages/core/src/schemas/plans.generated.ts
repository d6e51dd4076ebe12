// Generated from the schemas in events.ts and vibe.ts by plans.test.ts: do not edit. After changing a
// schema, `pnpm vitest run packages/core/src/schemas/plans.test.ts -u` rewrites it.
import type { EventName } from './events.js'
import type { Plan } from './plan.js'

/** Each documented event's plan. */
export const EVENT_PLANS: Readonly<Record<EventName, Plan>> = {
  "gesture": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["gesture"]}],
    ["gesture_type", {"kind":"string","min":1}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "app.installed": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["app.installed"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "app.activated": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["app.activated"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "control.passive": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["control.passive"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "app.deactivated": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["app.deactivated"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "app.uninstalled": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["app.uninstalled"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[]}],
  ]},
  "notification.responded": {"kind":"object","extra":"keep","fields":[
    ["event", {"kind":"values","values":["notification.responded"]}],
    ["user_app_id", {"kind":"string","min":1}],
    ["external_user_id", {"kind":"optional","inner":{"kind":"string"}}],
    ["app_id", {"kind":"string","min":1}],
    ["timestamp", {"kind":"string","rules":[{"rule":"isTimestamp"}]}],
    ["data", {"kind":"object","extra":"keep","fields":[
        ["event_id", {"kind":"string","min":1}],
        ["response", {"kind":"union","options":[{"kind":"values","values":["yes","no","dismiss"]},{"kind":"pattern","source":"^emoji:[\\s\\S]{1,}$","flags":""}]}],
      ]}],
  ]},
}

/** The plan of a vibe (`vibeSchema`). */
export const VIBE_PLAN: Plan = {"kind":"object","extra":"refuse","rules":[{"rule":"messageWithNotification"}],"fields":[
    ["sequence", {"kind":"array","item":{"kind":"object","extra":"refuse","fields":[["type",{"kind":"values","values":["tap","pulse"]}],["delay_ms",{"kind":"optional","inner":{"kind":"int","min":150,"max":2000}}]]},"min":1,"max":3}],
    ["message", {"kind":"optional","inner":{"kind":"string","rules":[{"rule":"withinCharacters","max":80}]}}],
    ["show_ring_ui_notif", {"kind":"optional","inner":{"kind":"boolean"}}],
  ]}

/** The plan of a gesture's reply (`gestureReplySchema`). */
export const GESTURE_REPLY_PLAN: Plan = {"kind":"object","extra":"refuse","fields":[
    ["success", {"kind":"boolean"}],
    ["vibe", {"kind":"optional","inner":{"kind":"object","extra":"refuse","fields":[["sequence",{"kind":"array","item":{"kind":"object","extra":"refuse","fields":[["type",{"kind":"values","values":["tap","pulse"]}],["delay_ms",{"kind":"optional","inner":{"kind":"int","min":150,"max":2000}}]]},"min":1,"max":3}],["message",{"kind":"optional","inner":{"kind":"string","rules":[{"rule":"withinCharacters","max":80}]}}],["show_ring_ui_notif",{"kind":"optional","inner":{"kind":"boolean"}}]],"rules":[{"rule":"messageWithNotification"}]}}],
  ]}
