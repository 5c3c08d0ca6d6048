import { upstreamList } from './upstream';

type Row = {
  id: string;
  reference: string;
  status: string;
  createdAt: string;
  amount: { value: number; currency: string };
  contact: { firstName: string; lastName: string; email: string };
};

/** One server-rendered page with a table of the first page of collections. */
export default async function Page({ searchParams }: { searchParams: Promise<{ page?: string; limit?: string }> }) {
  const { page = '1', limit = '100' } = await searchParams;
  const body = (await (await upstreamList(page, limit)).json()) as { data: Row[] };
  return (
    <main>
      <h1>Collections</h1>
      <table>
        <thead>
          <tr>
            <th>Reference</th>
            <th>Contact</th>
            <th>Amount</th>
            <th>Status</th>
            <th>Created</th>
            <th>ID</th>
          </tr>
        </thead>
        <tbody>
          {body.data.map((c) => (
            <tr key={c.id}>
              <td>
                <a href={`/collections/${c.id}`}>{c.reference}</a>
              </td>
              <td>
                {c.contact.firstName} {c.contact.lastName}
                <br />
                {c.contact.email}
              </td>
              <td>
                {c.amount.currency} {c.amount.value}
              </td>
              <td>{c.status}</td>
              <td>{c.createdAt}</td>
              <td>{c.id}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
