// Express 4, installed under an npm alias beside Express 5; the v5 types cover what the tests use.
declare module 'express4' {
  import express = require('express')
  export = express
}
