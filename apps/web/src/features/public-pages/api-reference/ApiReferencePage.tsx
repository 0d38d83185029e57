import { type ReactNode, useMemo } from 'react';
import { useApiReference } from '../../../api/apiReference';
import { routeUrl } from '../../../api/routeClient';
import { DataTable } from '../../../components/DataTable';
import { Alert, LoadingView } from '../../../components/ui';
import { PageShell } from '../PageShell';
import { FieldsTable } from './FieldsTable';
import { InlineCode } from './InlineCode';
import { OperationItem } from './OperationItem';
import { fieldRows, operationsByTag } from './openApiReading';

const DOCUMENT_URL = routeUrl('openApiDocument');

/** /api-reference: the API's OpenAPI document, read for people: operations by area, each with its fields. */
export function ApiReferencePage() {
  const reference = useApiReference();
  const doc = reference.data;
  const tags = useMemo(() => (doc ? operationsByTag(doc) : []), [doc]);

  let content: ReactNode;
  if (reference.isPending) content = <LoadingView title="Loading the API reference..." />;
  else if (!doc) content = <Alert tone="error">Failed to load the API reference</Alert>;
  else {
    const schemes = Object.entries(doc.components.securitySchemes);
    const errorBody = doc.components.schemas.ErrorBody;
    content = (
      <>
        <section aria-labelledby="api-authentication">
          <h2 id="api-authentication" className="text-xl font-semibold text-zinc-950">
            Authentication
          </h2>
          <p className="mt-2 text-sm text-zinc-600">
            Each call lists the ways it accepts; credentials joined by + are sent together.
          </p>
          <DataTable
            className="mt-4"
            label="Authentication schemes"
            look="compact"
            rows={schemes}
            rowKey={([name]) => name}
            columns={[
              { header: 'Scheme', cell: ([name]) => <code className="font-mono text-xs">{name}</code> },
              {
                header: 'Sent as',
                cell: ([, scheme]) =>
                  scheme.type === 'http'
                    ? `Authorization: Bearer ${scheme.bearerFormat ?? ''}`
                    : `${scheme.in} ${scheme.name}`,
                className: 'whitespace-nowrap font-mono text-xs',
              },
              {
                header: 'Description',
                cell: ([, scheme]) => <InlineCode text={scheme.description} />,
                className: 'text-zinc-600',
              },
            ]}
          />
          {errorBody && (
            <>
              <h3 className="mt-8 font-semibold text-zinc-900">The error body</h3>
              <p className="mt-1 text-sm text-zinc-600">
                Every error answer, whatever its status, has these fields.
              </p>
              <div className="mt-2">
                <FieldsTable label="The error body" rows={fieldRows(doc, errorBody)} />
              </div>
            </>
          )}
        </section>

        <nav aria-label="Areas" className="mt-10 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <a
              key={tag.name}
              href={`#area-${tag.name}`}
              className="rounded-full border border-zinc-200 px-3 py-1 text-sm text-zinc-700 hover:border-accent-300 hover:text-accent-700"
            >
              {tag.name} <span className="text-zinc-400">{tag.operations.length}</span>
            </a>
          ))}
        </nav>

        {tags.map((tag) => (
          <section key={tag.name} aria-labelledby={`area-${tag.name}`} className="mt-10">
            <h2
              id={`area-${tag.name}`}
              className="scroll-mt-20 text-xl font-semibold text-zinc-950 capitalize"
            >
              {tag.name}
            </h2>
            {tag.description && <p className="mt-1 text-sm text-zinc-600">{tag.description}</p>}
            <div className="mt-4 space-y-2">
              {tag.operations.map((operation) => (
                <OperationItem key={operation.id} operation={operation} />
              ))}
            </div>
          </section>
        ))}
      </>
    );
  }

  return (
    <PageShell
      wide
      title="API reference"
      subtitle="Every call the Slipway web app makes: its method, path, who may call, what it takes and what it answers."
      meta={
        <>
          Generated from the route table as OpenAPI 3.1:{' '}
          <a href={DOCUMENT_URL} className="font-mono text-accent-700 hover:underline">
            {DOCUMENT_URL}
          </a>
          {doc && ` (version ${doc.info.version})`}
        </>
      }
    >
      {content}
    </PageShell>
  );
}
