// Express 4 is installed under the alias `express4` to test the middleware on both majors; its
// API is close enough to Express 5's for the tests' use that Express 5's types serve.
declare module 'express4' {
  import express from 'express';
  export default express;
}
