import { useTranslation } from "react-i18next";
import { VisuallyHidden } from "~/components/ui";
import { RoleBadge, type RoleBadgeKind } from "./RoleBadge";
import "~/styles/answers.css";

export interface CommentItem {
  badge: RoleBadgeKind;
  authorName: string;
  comment: string;
  atText: string | null;
}

/** Comments on a question, each with who wrote it (S, PL, PV) and when, so a reader knows whose word it is. */
export function CommentList({ comments, heading }: { comments: readonly CommentItem[]; heading?: string }) {
  const { t } = useTranslation("answers");
  if (comments.length === 0) return null;
  return (
    <div className="comment-list">
      {heading ? <p className="comment-list__heading">{heading}</p> : null}
      <ul className="comment-list__items">
        {comments.map((c, i) => (
          <li key={i} className="comment-list__item">
            <p className="comment-list__meta">
              <RoleBadge kind={c.badge} /> <VisuallyHidden>{t("comments.by")} </VisuallyHidden>
              <span className="comment-list__author">{c.authorName}</span>
              {c.atText ? <span className="comment-list__date"> · {c.atText}</span> : null}
            </p>
            <p className="comment-list__text">{c.comment}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
