import { connect } from '../../src/store/connect.js';

type Db = ReturnType<typeof connect>['db'];

/** Rows read straight from a test app's database (what no API shows: stored bodies, documents, tokens). */
export async function storedRows<T>(databaseUrl: string, read: (db: Db) => Promise<T>): Promise<T> {
  const connection = connect(databaseUrl);
  try {
    return await read(connection.db);
  } finally {
    await connection.db.destroy();
  }
}
